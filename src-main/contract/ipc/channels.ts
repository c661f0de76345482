// Every IPC channel: renderer → main, `invoke(channel, input)` → IpcResult<output>. Inputs are strict
// (unknown fields, `apikey` among them, are refused) and never carry the API key except apiKey.set,
// which is write-only: no output anywhere holds a key.
//
// Naming, for the channels here and the events of events.ts alike: `area.word`, one dot, both parts
// camelCase. The area is the part of OrderDesk concerned, the same word in channels and events:
// orders, gtt, books, market, session, profiles, apiKey, settings, journal, alerts, watcher (and tray for
// an event). A channel's word is a verb for what it does (orders.place, profiles.switch) or a noun
// for what it reads (books.orders, market.symbol); an event's word is a past participle for what
// happened (orders.filled, profiles.switched) or a noun for state sent whole (alerts.state). A channel
// and the event that updates what it reads share the name and the value's schema (books.orders).
import { z } from 'zod';
import { GuardUnlockInput, GuardView } from './guard.js';
import {
  StrategiesView,
  StrategyRef,
  StrategyRollInput,
  StrategySendInput,
  StrategyUpdateInput,
  StrategyView,
} from './strategies.js';
import {
  BracketFlattenResult,
  BracketInput,
  BracketModifyInput,
  BracketsView,
  BracketView,
} from './protection.js';
// The contract's own modules by their full path: the lint rule that keeps paper/contract away from
// src-main/core matches the short `../core/*` form.
import {
  ApiKeyInput,
  JournalEntry,
  JournalQuery,
  NewProfileInput,
  ProfileId,
  ProfileUpdate,
  ProfileView,
  Settings,
  SettingsPatch,
  DailyLimitsState,
  ProtectionSpec,
} from '../../contract/core/index.js';
import {
  BasketLeg,
  BasketOrderRequest,
  BasketOrderResponse,
  CancelAllOrderResponse,
  CancelOrderRequest,
  ClosePositionResponse,
  DepthRequest,
  DepthResponse,
  EXCHANGES,
  ExpiryRequest,
  ExpiryResponse,
  GttIdResponse,
  IntervalsResponse,
  ModifyOrderRequest,
  MultiQuotesRequest,
  MultiQuotesResponse,
  OpenPositionRequest,
  OptionChainRequest,
  OptionChainResponse,
  OpenPositionResponse,
  OrderIdResponse,
  OrderStatusRequest,
  PlaceOrderRequest,
  PositionsOpenResponse,
  QuotesRequest,
  QuotesResponse,
  SearchRequest,
  SearchResponse,
  SmartOrderRequest,
  SmartOrderResponse,
  SplitOrderRequest,
  SplitOrderResponse,
  SymbolRequest,
  TICKER_INTERVALS,
  TickerResponse,
  oneOf,
  symbolText,
  text,
} from '../../contract/gateway/index.js';
import { CloseAllInput, CloseAllResult } from './close-all.js';
import {
  GttBookIpcInput,
  GttBookView,
  GttCancelIpcInput,
  GttModifyIpcInput,
  GttPlaceIpcInput,
} from './gtt.js';
import { AlertsState, ApiKeyStatus } from './events.js';
import { MarketUnwatchInput, MarketUnwatchResult, MarketWatchInput, MarketWatchResult } from './market.js';
import { MarginEstimate, MarginIpcInput } from './margin.js';
import { OptionGreeksInput, OptionGreeksView } from './option-greeks.js';
import { SessionSnapshot } from './session.js';
import { PaperResetResult } from './storage.js';
import {
  FundsView,
  HoldingsView,
  OrderSnapshot,
  OrdersView,
  PositionsView,
  SymbolInfo,
  TradesView,
} from './views.js';

/** Channels without input accept nothing or an empty object. */
export const NoInput = z.strictObject({}).optional();

const strategy = text('strategy', 64).optional();
/** Order inputs: the gateway request less the key; strategy defaults to the profile's. */
const orderFields = {
  strategy,
  /** Sends an order the duplicate guard would hold back. */
  confirmDuplicate: z.boolean({ error: 'confirmDuplicate must be true or false' }).optional(),
};
const withoutKey = <S extends z.ZodRawShape>(shape: S) => {
  const { apikey: _k, strategy: _s, ...rest } = shape as S & { apikey: unknown; strategy: unknown };
  return rest as Omit<S, 'apikey' | 'strategy'>;
};

export const PlaceOrderIpcInput = z.strictObject({ ...withoutKey(PlaceOrderRequest.shape), ...orderFields });
export type PlaceOrderIpcInput = z.infer<typeof PlaceOrderIpcInput>;
export const ModifyOrderIpcInput = z.strictObject({
  ...withoutKey(ModifyOrderRequest.shape),
  ...orderFields,
});
export type ModifyOrderIpcInput = z.infer<typeof ModifyOrderIpcInput>;
export const CancelOrderIpcInput = z.strictObject({ ...withoutKey(CancelOrderRequest.shape), strategy });
/**
 * A stop and target the core attaches to an entry order's fills and keeps one-cancels-other
 * (core/protection). The entry's own fields say what the legs close; `tick` is the instrument's.
 */
export const ProtectOrderIpcInput = z.strictObject({
  orderid: CancelOrderRequest.shape.orderid,
  symbol: PlaceOrderRequest.shape.symbol,
  exchange: PlaceOrderRequest.shape.exchange,
  product: PlaceOrderRequest.shape.product,
  action: PlaceOrderRequest.shape.action,
  tick: z.number({ error: 'tick must be a number' }).positive({ error: 'tick must be more than 0' }),
  /** The exchange's freeze quantity: legs above it rest as several orders of at most it each. */
  freeze: z
    .number({ error: 'freeze must be a number' })
    .int({ error: 'freeze must be a whole number' })
    .positive({ error: 'freeze must be more than 0' })
    .optional(),
  /**
   * core (default): OrderDesk holds the OCO and must keep running; gtt: one GTT OCO rests at the
   * gateway and holds with OrderDesk closed (CNC/NRML long entries with a stop and a target).
   */
  kind: z.enum(['core', 'gtt'], { error: 'kind must be core or gtt' }).optional(),
  spec: ProtectionSpec,
});
export type ProtectOrderIpcInput = z.infer<typeof ProtectOrderIpcInput>;
export const StrategyInput = z.strictObject({ strategy }).optional();
export const SmartOrderIpcInput = z.strictObject({ ...withoutKey(SmartOrderRequest.shape), ...orderFields });
export type SmartOrderIpcInput = z.infer<typeof SmartOrderIpcInput>;
export const SplitOrderIpcInput = z.strictObject({ ...withoutKey(SplitOrderRequest.shape), ...orderFields });
export type SplitOrderIpcInput = z.infer<typeof SplitOrderIpcInput>;
export const BasketOrderIpcInput = z.strictObject({
  strategy,
  orders: BasketOrderRequest.shape.orders,
  confirmDuplicate: orderFields.confirmDuplicate,
});
export type BasketOrderIpcInput = z.infer<typeof BasketOrderIpcInput>;

export const SmartPreview = z.object({
  /** The signed net position now, for (symbol, exchange, product). */
  current: z.number(),
  target: z.number(),
  decision: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('order'),
      order: BasketLeg,
    }),
    z.object({ kind: z.literal('none'), message: z.string() }),
  ]),
});
export type SmartPreview = z.infer<typeof SmartPreview>;
export const SplitPreview = z.object({
  children: z.array(BasketLeg),
  totalQuantity: z.number(),
});
export type SplitPreview = z.infer<typeof SplitPreview>;

/** One order's status; strategy defaults to the profile's (some gateways require it). */
export const OrderStatusIpcInput = z.strictObject({ ...withoutKey(OrderStatusRequest.shape), strategy });
/** One instrument's net position for a strategy (strategy defaults to the profile's). */
export const PositionQueryInput = z.strictObject({ ...withoutKey(OpenPositionRequest.shape), strategy });
export type PositionQueryInput = z.infer<typeof PositionQueryInput>;

export const TickerIpcInput = z.strictObject({
  exchange: oneOf('exchange', EXCHANGES),
  symbol: symbolText(),
  interval: oneOf('interval', TICKER_INTERVALS).optional(),
  from: z.string().max(16).optional(),
  to: z.string().max(16).optional(),
  adjusted: z.boolean().optional(),
  sort: z.enum(['asc', 'desc']).optional(),
});

const profileRef = z.strictObject({ profileId: ProfileId.optional() }).optional();
export const ApiKeySetInput = z.strictObject({ key: ApiKeyInput, profileId: ProfileId.optional() });
export const ApiKeyTestResult = z.object({ profileId: ProfileId, broker: z.string(), message: z.string() });

export const ProfilesList = z.object({
  activeProfileId: ProfileId,
  profiles: z.array(ProfileView),
  /** What the change did besides (profiles.update: a new address cleared the key), in words. */
  notice: z.string().optional(),
});
export type ProfilesList = z.infer<typeof ProfilesList>;
export const ProfileUpdateInput = z.strictObject({ id: ProfileId, changes: ProfileUpdate });
export const ProfileIdInput = z.strictObject({ id: ProfileId });

/** Without a profileId, the active profile's rows only: a profile switch never mixes journals. */
export const JournalQueryInput = JournalQuery.optional();
/** An export takes every row the filters match (no limit or offset), oldest first unless asked. */
export const JournalExportInput = JournalQuery.omit({ limit: true, offset: true, order: true })
  .extend({ order: z.enum(['asc', 'desc']).default('asc') })
  .optional();
export type JournalExportInput = z.input<typeof JournalExportInput>;
/** Written to the file the shell had the user choose, or cancelled there (nothing written). */
export const JournalExportResult = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('saved'), path: z.string(), rows: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('cancelled') }),
]);
export type JournalExportResult = z.infer<typeof JournalExportResult>;

function channel<I extends z.ZodType, O extends z.ZodType>(input: I, output: O) {
  return { input, output };
}

export const CHANNELS = {
  'orders.place': channel(PlaceOrderIpcInput, OrderIdResponse),
  'orders.modify': channel(ModifyOrderIpcInput, OrderIdResponse),
  'orders.cancel': channel(CancelOrderIpcInput, OrderIdResponse),
  /** Attaches a protection to an entry: its stop and target follow its fills (docs/protection.md). */
  'orders.protect': channel(ProtectOrderIpcInput, z.object({ orderid: z.string() })),
  /** The active profile's brackets; the `protection.brackets` event sends them whole at each change. */
  'protection.brackets': channel(NoInput, BracketsView),
  /** Moves a bracket's stop and/or target (its working legs are modified; trailing goes on from there). */
  'protection.modify': channel(BracketModifyInput, BracketView),
  /** Cancels a bracket's working legs (read back from the book) and lets it go; the position stays. */
  'protection.remove': channel(BracketInput, BracketView),
  /** Places a refused leg again, once, after the trader has seen why. */
  'protection.retry': channel(BracketInput, BracketView),
  /**
   * Cancels the legs (read back), then closes what is open at MARKET: the position's remainder, or the
   * excess after an overshoot. Only when the trader asks; the core never sends it by itself.
   */
  'protection.flatten': channel(BracketInput, BracketFlattenResult),
  /** The account guard of the active profile; the `guard.state` event sends it whole at each change. */
  'guard.state': channel(NoInput, GuardView),
  /** Ends the lock before its time (typed UNLOCK; journalled). */
  'guard.unlock': channel(GuardUnlockInput, GuardView),
  /** Stops a flatten's re-squaring (the lock stays). */
  'guard.stopFlatten': channel(NoInput, GuardView),
  /**
   * Saves a new options strategy and sends its legs, BUY legs first, one at a time; a refused or
   * unknown leg stops the rest (state partial) until strategies.resume or strategies.exit.
   */
  'strategies.send': channel(StrategySendInput, StrategyView),
  /** Sends the legs a partial strategy has not sent yet (the refused one again, once, as asked). */
  'strategies.resume': channel(StrategyRef, StrategyView),
  /** Exits every open leg as one basket (also "unwind sent legs" after a partial); never resent. */
  'strategies.exit': channel(StrategyRef, StrategyView),
  /** Closes a leg's open quantity and opens it in another contract, in one action. */
  'strategies.roll': channel(StrategyRollInput, StrategyView),
  /** Renames a strategy or sets its combined stop and target (rupees of its P&L). */
  'strategies.update': channel(StrategyUpdateInput, StrategyView),
  /** Forgets a strategy that holds nothing open (its orders and trades stay in the books). */
  'strategies.remove': channel(StrategyRef, StrategyRef),
  /** The active profile's strategies; the `strategies.list` event sends them whole at each change. */
  'strategies.list': channel(NoInput, StrategiesView),
  'orders.cancelAll': channel(StrategyInput, CancelAllOrderResponse),
  'orders.smart': channel(SmartOrderIpcInput, SmartOrderResponse),
  'orders.split': channel(SplitOrderIpcInput, SplitOrderResponse),
  'orders.basket': channel(BasketOrderIpcInput, BasketOrderResponse),
  'orders.closePosition': channel(StrategyInput, ClosePositionResponse),
  /**
   * Close all for the strategy, in the core: the order book read fresh and every working order
   * cancelled one by one, the positions closed, then both books read back (progress events as it goes).
   */
  'orders.closeAll': channel(CloseAllInput, CloseAllResult),
  'orders.previewSmart': channel(SmartOrderIpcInput, SmartPreview),
  'orders.previewSplit': channel(SplitOrderIpcInput, SplitPreview),
  /** The order book's row for one order, as `books.orders` shows it. */
  'orders.status': channel(OrderStatusIpcInput, OrderSnapshot),
  /** The account's net position in one instrument (`openposition`). */
  'orders.openPosition': channel(PositionQueryInput, OpenPositionResponse),
  /** The margin the gateway works out for these orders, with its source; `not_offered` where it has none. */
  'orders.margin': channel(MarginIpcInput, MarginEstimate),

  /** GTT orders: risk-checked per leg, journalled, an unknown outcome settled from the GTT book. */
  'gtt.place': channel(GttPlaceIpcInput, GttIdResponse),
  'gtt.modify': channel(GttModifyIpcInput, GttIdResponse),
  'gtt.cancel': channel(GttCancelIpcInput, GttIdResponse),
  /** The GTT order book read now (`active` by default, or `all`). */
  'gtt.book': channel(GttBookIpcInput, GttBookView),

  /** Read now from the gateway; the `books.*` events carry the same views as the watcher reads them. */
  'books.orders': channel(NoInput, OrdersView),
  'books.trades': channel(NoInput, TradesView),
  /** MTM at the last prices the watcher has (no quote request of its own). */
  'books.positions': channel(NoInput, PositionsView),
  'books.holdings': channel(NoInput, HoldingsView),
  'books.funds': channel(NoInput, FundsView),
  /** The strategy's own exposure in one instrument (`positionsopen`, hosted gateways and paper). */
  'books.positionsOpen': channel(PositionQueryInput, PositionsOpenResponse),

  /** What a freshly loaded window needs; apply events with a greater `seq` after it. */
  'session.snapshot': channel(NoInput, SessionSnapshot),

  'market.depth': channel(z.strictObject(withoutKey(DepthRequest.shape)), DepthResponse),
  'market.search': channel(z.strictObject(withoutKey(SearchRequest.shape)), SearchResponse),
  'market.expiry': channel(z.strictObject(withoutKey(ExpiryRequest.shape)), ExpiryResponse),
  'market.quotes': channel(z.strictObject(withoutKey(QuotesRequest.shape)), QuotesResponse),
  'market.ticker': channel(TickerIpcInput, TickerResponse),
  /** Lot, tick, freeze quantity, expiry and strike of one instrument. */
  'market.symbol': channel(z.strictObject(withoutKey(SymbolRequest.shape)), SymbolInfo),
  'market.multiquotes': channel(z.strictObject(withoutKey(MultiQuotesRequest.shape)), MultiQuotesResponse),
  /** The bar intervals the gateway's history and ticker accept. */
  'market.intervals': channel(NoInput, IntervalsResponse),
  /** One expiry's chain with quotes (and greeks) in one request; `not_offered` where the gateway lacks it. */
  'market.optionChain': channel(z.strictObject(withoutKey(OptionChainRequest.shape)), OptionChainResponse),
  /** IV and greeks of the chain's shown contracts (multioptiongreeks in batches); nulls where none. */
  'market.optionGreeks': channel(OptionGreeksInput, OptionGreeksView),
  /** Subscribe to `market.ltp|quote|depth` events; answers the subscription's id. */
  'market.watch': channel(MarketWatchInput, MarketWatchResult),
  'market.unwatch': channel(MarketUnwatchInput, MarketUnwatchResult),

  'apiKey.set': channel(ApiKeySetInput, ApiKeyStatus),
  'apiKey.clear': channel(profileRef, ApiKeyStatus),
  'apiKey.test': channel(profileRef, ApiKeyTestResult),
  'apiKey.status': channel(profileRef, ApiKeyStatus),

  'profiles.list': channel(NoInput, ProfilesList),
  'profiles.add': channel(NewProfileInput, ProfilesList),
  'profiles.update': channel(ProfileUpdateInput, ProfilesList),
  'profiles.remove': channel(ProfileIdInput, ProfilesList),
  'profiles.switch': channel(ProfileIdInput, ProfilesList),
  /** The paper ledger that could not be opened is kept aside and the paper gateway starts afresh. */
  'profiles.resetPaper': channel(NoInput, PaperResetResult),

  /** The soft daily limits now: orders sent today, the day's P&L, which limit (if any) is reached. */
  'risk.daily': channel(NoInput, DailyLimitsState),
  'settings.get': channel(NoInput, Settings),
  'settings.update': channel(SettingsPatch, Settings),

  'journal.query': channel(JournalQueryInput, z.array(JournalEntry)),
  'journal.exportCsv': channel(JournalExportInput, JournalExportResult),

  'alerts.mute': channel(
    z.strictObject({ orderid: text('orderid', 64), muted: z.boolean().default(true) }),
    AlertsState,
  ),
  'alerts.pause': channel(z.strictObject({ paused: z.boolean() }), AlertsState),
  'alerts.dismiss': channel(z.strictObject({ id: text('id', 64) }), AlertsState),

  'watcher.setVisibility': channel(
    z.strictObject({ visible: z.boolean({ error: 'visible must be true or false' }) }),
    z.object({ intervalMs: z.number() }),
  ),
} as const;

export type Channel = keyof typeof CHANNELS;
export const CHANNEL_NAMES = Object.keys(CHANNELS) as Channel[];
/** What a caller may pass (before defaults and transforms). */
export type ChannelInput<C extends Channel> = z.input<(typeof CHANNELS)[C]['input']>;
/** What a handler receives (after validation). */
export type ChannelArgs<C extends Channel> = z.output<(typeof CHANNELS)[C]['input']>;
export type ChannelOutput<C extends Channel> = z.output<(typeof CHANNELS)[C]['output']>;
