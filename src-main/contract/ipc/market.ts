// Market subscriptions: `market.watch` / `market.unwatch` and the `market.*` events they produce. The
// contract speaks of subscriptions and ticks, not of polling, so the source can move from polling to
// the gateway's WebSocket feed without a change here.
import { z } from 'zod';
import { ProfileId } from '../../contract/core/index.js';
import { DepthLevel, MultiQuotesRequest } from '../../contract/gateway/index.js';
import { IpcError } from './result.js';

export const MARKET_MODES = ['ltp', 'quote', 'depth'] as const;
export const MarketMode = z.enum(MARKET_MODES, { error: 'mode must be one of: ltp, quote, depth' });
export type MarketMode = z.infer<typeof MarketMode>;

/** One instrument: the gateway's `{symbol, exchange}` pair (exchange checked against the known list). */
export const MarketInstrument = MultiQuotesRequest.shape.symbols.element;
export type MarketInstrument = z.infer<typeof MarketInstrument>;

export const MarketWatchInput = z
  .strictObject({
    /** 1 to 500 instruments (one `multiquotes` request validates them all). */
    symbols: MultiQuotesRequest.shape.symbols,
    mode: MarketMode,
    /** Depth only, one instrument: polled at ≥ 2/s; the newest focused watch takes the focus. */
    focus: z.boolean({ error: 'focus must be true or false' }).optional(),
  })
  .refine((w) => !w.focus || w.mode === 'depth', { message: 'focus applies to depth watches only' })
  .refine((w) => !w.focus || w.symbols.length === 1, {
    message: 'a focused depth watch names exactly one symbol',
  });
export type MarketWatchInput = z.input<typeof MarketWatchInput>;

export const SubscriptionId = z.string().trim().min(1, 'id cannot be empty').max(64);

/** A symbol the gateway refused at watch time (kind `not_found`), with what it said. */
export const MarketRejected = z.object({ symbol: z.string(), exchange: z.string(), error: IpcError });

export const MarketWatchResult = z.object({
  id: SubscriptionId,
  mode: MarketMode,
  focus: z.boolean(),
  /** The instruments subscribed. */
  symbols: z.array(MarketInstrument),
  /** Instruments left out because the gateway does not know them; empty when all were taken. */
  rejected: z.array(MarketRejected),
});
export type MarketWatchResult = z.infer<typeof MarketWatchResult>;

export const MarketUnwatchInput = z.strictObject({ id: SubscriptionId });
export const MarketUnwatchResult = z.object({
  id: SubscriptionId,
  /** Instruments no longer followed in this mode (no other subscription holds them). */
  stopped: z.array(MarketInstrument),
});
export type MarketUnwatchResult = z.infer<typeof MarketUnwatchResult>;

// ---- events ----
const tick = {
  profileId: ProfileId,
  /** When the data was received (ms since the epoch). */
  time: z.number(),
  symbol: z.string(),
  exchange: z.string(),
};

export const MarketLtpEvent = z.object({ ...tick, ltp: z.number() });
export type MarketLtpEvent = z.infer<typeof MarketLtpEvent>;

const session = {
  ltp: z.number(),
  /** ltp − prevClose, computed in decimal (no binary float residue). */
  change: z.number(),
  /** Percent of prevClose, 2 decimals; null when there is no previous close. */
  changePercent: z.number().nullable(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  prevClose: z.number(),
  volume: z.number(),
  oi: z.number(),
};

export const MarketQuoteEvent = z.object({ ...tick, ...session, bid: z.number(), ask: z.number() });
export type MarketQuoteEvent = z.infer<typeof MarketQuoteEvent>;

export const MarketDepthEvent = z.object({
  ...tick,
  ...session,
  /** Best first, at most 5 levels each. */
  bids: z.array(DepthLevel),
  asks: z.array(DepthLevel),
  totalBuyQty: z.number(),
  totalSellQty: z.number(),
  ltq: z.number(),
});
export type MarketDepthEvent = z.infer<typeof MarketDepthEvent>;

/**
 * Data for these instruments could not be had: `not_found` (the gateway does not know them; they are
 * not asked for again on this profile) or a transient kind (said once per run of failures; retried
 * with backoff).
 */
export const MarketErrorEvent = z.object({
  profileId: ProfileId,
  time: z.number(),
  mode: MarketMode,
  symbols: z.array(MarketInstrument),
  error: IpcError,
});
export type MarketErrorEvent = z.infer<typeof MarketErrorEvent>;
