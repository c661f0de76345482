// Gateway answers → `market.*` event payloads. Change and percent change are worked out in exact
// decimals, so 100.05 − 99.9 is 0.15, not 0.15000000000000568.
import type {
  DepthData,
  MarketDepthEvent,
  MarketLtpEvent,
  MarketQuoteEvent,
  QuoteData,
} from '../../contract/index.js';
import { decimalsOf, toScaled } from '../../shared/decimal.js';
import type { Instrument } from './instruments.js';

interface Stamp {
  profileId: string;
  time: number;
}

/** a − b, exact in decimal. */
export function decimalDifference(a: number, b: number): number {
  const places = Math.max(decimalsOf(a), decimalsOf(b));
  return Number(toScaled(a, places) - toScaled(b, places)) / 10 ** places;
}

/** ltp − prevClose and its percent of prevClose (2 places; null without a previous close). */
export function dayChange(ltp: number, prevClose: number): { change: number; changePercent: number | null } {
  if (!Number.isFinite(ltp) || !Number.isFinite(prevClose)) return { change: 0, changePercent: null };
  const change = decimalDifference(ltp, prevClose);
  const changePercent = prevClose > 0 ? Math.round((change / prevClose) * 10_000) / 100 : null;
  return { change, changePercent };
}

export function ltpTick(at: Stamp, i: Instrument, q: Pick<QuoteData, 'ltp'>): MarketLtpEvent {
  return { ...at, symbol: i.symbol, exchange: i.exchange, ltp: q.ltp };
}

export function quoteTick(at: Stamp, i: Instrument, q: QuoteData): MarketQuoteEvent {
  return {
    ...at,
    symbol: i.symbol,
    exchange: i.exchange,
    ltp: q.ltp,
    ...dayChange(q.ltp, q.prev_close),
    bid: q.bid,
    ask: q.ask,
    open: q.open,
    high: q.high,
    low: q.low,
    prevClose: q.prev_close,
    volume: q.volume,
    oi: q.oi ?? 0,
  };
}

const level = (l: { price: number; quantity: number }) => ({ price: l.price, quantity: l.quantity });

export function depthTick(at: Stamp, i: Instrument, d: DepthData): MarketDepthEvent {
  return {
    ...at,
    symbol: i.symbol,
    exchange: i.exchange,
    ltp: d.ltp,
    ...dayChange(d.ltp, d.prev_close),
    open: d.open,
    high: d.high,
    low: d.low,
    prevClose: d.prev_close,
    volume: d.volume,
    oi: d.oi,
    bids: d.bids.slice(0, 5).map(level),
    asks: d.asks.slice(0, 5).map(level),
    totalBuyQty: d.totalbuyqty,
    totalSellQty: d.totalsellqty,
    ltq: d.ltq,
  };
}
