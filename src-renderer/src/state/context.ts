// The desk's shared state, built once by App.svelte and handed to every pane through Svelte context:
// one key and one typed getter per state, and each getter throws when its state is missing, so a pane
// never builds its own copy. A component test passes its own instances under the exported keys:
// render(Pane, { context: new Map([[BOOKS, books]]) }).
import { getContext, hasContext, setContext } from 'svelte';
import type { BridgeApi } from '@contract';
import type { AlertLog } from './alert-log.svelte';
import type { BooksState } from './books.svelte';
import type { CloseAllFlow } from './close-all.svelte';
import type { ConfirmState } from './confirm.svelte';
import type { ConfirmationsState } from './confirmations.svelte';
import type { DeskState } from './desk.svelte';
import type { GttState } from './gtt.svelte';
import type { GuardState } from './guard.svelte';
import type { HotkeysState } from './hotkeys.svelte';
import type { JournalState } from './journal.svelte';
import type { LayoutState } from './layout.svelte';
import type { MarketState } from './market.svelte';
import type { OneClickState } from './one-click.svelte';
import type { OrderActions } from './order-actions.svelte';
import type { ProtectionState } from './protection.svelte';
import type { TicketState } from './ticket.svelte';
import type { TicketModes } from './ticket-modes.svelte';
import type { StrategyBuilderState } from './strategy-builder.svelte';

export const BRIDGE = Symbol('bridge');
export const DESK = Symbol('desk');
export const ALERT_LOG = Symbol('alertLog');
export const TICKET = Symbol('ticket');
export const TICKET_MODES = Symbol('ticketModes');
export const BOOKS = Symbol('books');
export const MARKET = Symbol('market');
export const CONFIRM = Symbol('confirm');
export const CONFIRMATIONS = Symbol('confirmations');
export const ORDER_ACTIONS = Symbol('orderActions');
export const CLOSE_ALL = Symbol('closeAll');
export const GTT = Symbol('gtt');
export const ONE_CLICK = Symbol('oneClick');
export const JOURNAL = Symbol('journal');
export const HOTKEYS = Symbol('hotkeys');
export const LAYOUT = Symbol('layout');
export const PROTECTION = Symbol('protection');
export const GUARD = Symbol('guard');
export const STRATEGY_BUILDER = Symbol('strategyBuilder');

function read<T>(key: symbol, what: string): T {
  // A pane mounted outside App (or a test without the context) says which state it lacks.
  if (!hasContext(key)) throw new Error(`${what} is not in context: mount the pane under App or pass it`);
  return getContext<T>(key);
}

/** The window's bridge with App's refusal tap: a refused order action reaches Alerts whoever sent it. */
export const setDeskBridge = (b: BridgeApi): BridgeApi => setContext(BRIDGE, b);
export const getDeskBridge = (): BridgeApi => read<BridgeApi>(BRIDGE, 'The desk bridge');
export const setDesk = (desk: DeskState): DeskState => setContext(DESK, desk);
export const getDesk = (): DeskState => read<DeskState>(DESK, 'DeskState');
/** The one alert list: the toasts, the Alerts pane and the unread count all read it. */
export const setAlertLog = (log: AlertLog): AlertLog => setContext(ALERT_LOG, log);
export const getAlertLog = (): AlertLog => read<AlertLog>(ALERT_LOG, 'AlertLog');
export const setTicket = (ticket: TicketState): TicketState => setContext(TICKET, ticket);
/**
 * The order ticket. To load it from any pane (symbol/exchange/side/price) and bring it forward
 * (caret in its price or quantity field), never sending: `loadTicket(getTicket(), {...})` from
 * lib/ticket-load.ts. A price alone for the ticket's current instrument (depth): set priceText.
 */
export const getTicket = (): TicketState => read<TicketState>(TICKET, 'TicketState');
/** Which kind of order the ticket sends (Regular, Smart, Split, Basket, GTT) and each mode's state. */
export const setTicketModes = (m: TicketModes): TicketModes => setContext(TICKET_MODES, m);
export const getTicketModes = (): TicketModes => read<TicketModes>(TICKET_MODES, 'TicketModes');
export const setBooks = (books: BooksState): BooksState => setContext(BOOKS, books);
export const getBooks = (): BooksState => read<BooksState>(BOOKS, 'BooksState');
/** The market subscriptions: quotes and depth the panes watch (state/market.svelte.ts). */
export const setMarket = (market: MarketState): MarketState => setContext(MARKET, market);
export const getMarket = (): MarketState => read<MarketState>(MARKET, 'MarketState');
export const setConfirm = (confirm: ConfirmState): ConfirmState => setContext(CONFIRM, confirm);
/** The desk's one confirmation dialog: `await getConfirm().ask({...})` before anything is sent. */
export const getConfirm = (): ConfirmState => read<ConfirmState>(CONFIRM, 'ConfirmState');
/** Ask-before-send per action (settings): the ticket reads place, the orders pane modify and cancel. */
export const setConfirmations = (c: ConfirmationsState): ConfirmationsState => setContext(CONFIRMATIONS, c);
export const getConfirmations = (): ConfirmationsState =>
  read<ConfirmationsState>(CONFIRMATIONS, 'ConfirmationsState');
export const setOrderActions = (a: OrderActions): OrderActions => setContext(ORDER_ACTIONS, a);
export const getOrderActions = (): OrderActions => read<OrderActions>(ORDER_ACTIONS, 'OrderActions');
export const setCloseAll = (flow: CloseAllFlow): CloseAllFlow => setContext(CLOSE_ALL, flow);
export const getCloseAll = (): CloseAllFlow => read<CloseAllFlow>(CLOSE_ALL, 'CloseAllFlow');
/** The GTT book and actions: the GTT tab and the ticket's GTT mode share them. */
export const setGtt = (g: GttState): GttState => setContext(GTT, g);
export const getGtt = (): GttState => read<GttState>(GTT, 'GttState');
/** One-click mode: the switch above the ticket and its key handling share it. */
export const setOneClick = (s: OneClickState): OneClickState => setContext(ONE_CLICK, s);
export const getOneClick = (): OneClickState => read<OneClickState>(ONE_CLICK, 'OneClickState');
/** The journal's search and open entry: kept at the root, so they survive a switch of focus tabs. */
export const setJournal = (j: JournalState): JournalState => setContext(JOURNAL, j);
export const getJournal = (): JournalState => read<JournalState>(JOURNAL, 'JournalState');
/** The window's one key map (settings.hotkeys): every pane with keys resolves them through it. */
export const setHotkeys = (h: HotkeysState): HotkeysState => setContext(HOTKEYS, h);
export const getHotkeys = (): HotkeysState => read<HotkeysState>(HOTKEYS, 'HotkeysState');
/** Panel sizes and table column widths, remembered in settings.layout. */
export const setLayout = (l: LayoutState): LayoutState => setContext(LAYOUT, l);
export const getLayout = (): LayoutState => read<LayoutState>(LAYOUT, 'LayoutState');
/** The active profile's brackets (stops and targets the core keeps) and the actions on them. */
export const setProtection = (p: ProtectionState): ProtectionState => setContext(PROTECTION, p);
export const getProtection = (): ProtectionState => read<ProtectionState>(PROTECTION, 'ProtectionState');
/** The active profile's account guard: its limits' use, its lock, and ending or stopping them. */
export const setGuard = (g: GuardState): GuardState => setContext(GUARD, g);
export const getGuard = (): GuardState => read<GuardState>(GUARD, 'GuardState');
/** The guard where one is given: the status bar and the banners show nothing of it without one. */
export const findGuard = (): GuardState | undefined =>
  hasContext(GUARD) ? getContext<GuardState>(GUARD) : undefined;
/** The options strategy builder: the chain pane adds legs to it, the Strategy tab shows and sends them. */
export const setStrategyBuilder = (b: StrategyBuilderState): StrategyBuilderState =>
  setContext(STRATEGY_BUILDER, b);
export const getStrategyBuilder = (): StrategyBuilderState =>
  read<StrategyBuilderState>(STRATEGY_BUILDER, 'StrategyBuilderState');
/** The builder where one is given (a chain pane mounted alone in a test builds without it). */
export const findStrategyBuilder = (): StrategyBuilderState | undefined =>
  hasContext(STRATEGY_BUILDER) ? getContext<StrategyBuilderState>(STRATEGY_BUILDER) : undefined;
