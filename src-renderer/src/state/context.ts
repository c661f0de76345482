// The desk's shared state, handed from App.svelte to every pane through Svelte context, so panes
// never build their own bridge clients. The keys are exported so a component test can pass its own
// instances: render(Pane, { context: new Map([[BOOKS, books]]) }).
import { getContext, hasContext, setContext } from 'svelte';
import type { BooksState } from './books.svelte';
import type { CloseAllFlow } from './close-all.svelte';
import type { ConfirmState } from './confirm.svelte';
import type { DeskState } from './desk.svelte';
import type { OrderActions } from './order-actions.svelte';
import type { TicketState } from './ticket.svelte';

export const DESK = Symbol('desk');
export const TICKET = Symbol('ticket');
export const BOOKS = Symbol('books');
export const MARKET = Symbol('market');
export const CONFIRM = Symbol('confirm');
export const ORDER_ACTIONS = Symbol('orderActions');
export const CLOSE_ALL = Symbol('closeAll');

function read<T>(key: symbol, what: string): T {
  // A pane mounted outside App (or a test without the context) says which state it lacks.
  if (!hasContext(key)) throw new Error(`${what} is not in context: mount the pane under App or pass it`);
  return getContext<T>(key);
}

export const setDesk = (desk: DeskState): DeskState => setContext(DESK, desk);
export const getDesk = (): DeskState => read<DeskState>(DESK, 'DeskState');
/** The desk when App provides one (a component that only adds to it when it is there). */
export const findDesk = (): DeskState | undefined =>
  hasContext(DESK) ? getContext<DeskState>(DESK) : undefined;
export const setTicket = (ticket: TicketState): TicketState => setContext(TICKET, ticket);
/**
 * The order ticket. To load it from any pane (symbol/exchange/side/price) and bring it forward
 * (caret in its price or quantity field), never sending: `loadTicket(getTicket(), {...})` from
 * lib/ticket-load.ts. A price alone for the ticket's current instrument (depth): set priceText.
 */
export const getTicket = (): TicketState => read<TicketState>(TICKET, 'TicketState');
export const setBooks = (books: BooksState): BooksState => setContext(BOOKS, books);
export const getBooks = (): BooksState => read<BooksState>(BOOKS, 'BooksState');
export const setConfirm = (confirm: ConfirmState): ConfirmState => setContext(CONFIRM, confirm);
/** The desk's one confirmation dialog: `await getConfirm().ask({...})` before anything is sent. */
export const getConfirm = (): ConfirmState => read<ConfirmState>(CONFIRM, 'ConfirmState');
export const setOrderActions = (a: OrderActions): OrderActions => setContext(ORDER_ACTIONS, a);
export const getOrderActions = (): OrderActions => read<OrderActions>(ORDER_ACTIONS, 'OrderActions');
export const setCloseAll = (flow: CloseAllFlow): CloseAllFlow => setContext(CLOSE_ALL, flow);
export const getCloseAll = (): CloseAllFlow => read<CloseAllFlow>(CLOSE_ALL, 'CloseAllFlow');
/**
 * The market subscriptions (src/state/market.svelte.ts, owned by the ticket/depth pane's engineer).
 * Typed by the caller until that module lands; App.svelte sets it once it exists.
 */
export const setMarket = <M>(market: M): M => setContext(MARKET, market);
export const getMarket = <M>(): M => read<M>(MARKET, 'MarketState');
