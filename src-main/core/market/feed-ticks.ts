// Feed ticks (`market_data`, gateway-behaviour §13) as the REST shapes market polling reads, so one
// conversion to `market.*` events (ticks.ts) serves both sources. A Depth tick carries everything a
// quote needs (best bid and ask from the top of the book); an LTP tick only the last price.
import type { DepthData, QuoteData, WsMarketData } from '../../contract/index.js';
import type { MarketMode } from '../../contract/index.js';
import { instrumentKey, type Instrument } from './instruments.js';

/** What the feed is asked for: quote and depth watchers share a Depth subscription (it has bid/ask). */
export function feedSymbols(
  following: (mode: MarketMode) => readonly Instrument[],
): { symbol: string; exchange: string; mode: 1 | 3 }[] {
  const deep = new Map<string, Instrument>();
  for (const i of [...following('quote'), ...following('depth')]) deep.set(instrumentKey(i), i);
  const out: { symbol: string; exchange: string; mode: 1 | 3 }[] = [];
  for (const i of deep.values()) out.push({ symbol: i.symbol, exchange: i.exchange, mode: 3 });
  for (const i of following('ltp'))
    if (!deep.has(instrumentKey(i))) out.push({ symbol: i.symbol, exchange: i.exchange, mode: 1 });
  return out;
}

const level = (l: { price: number; quantity: number }) => ({ price: l.price, quantity: l.quantity });

/** The depth a Depth tick shows; undefined for a tick without a book. */
export function depthOfTick(t: WsMarketData): DepthData | undefined {
  const d = t.data;
  if (!d.depth) return undefined;
  return {
    ltp: d.ltp,
    ltq: d.last_quantity ?? 0,
    open: d.open ?? 0,
    high: d.high ?? 0,
    low: d.low ?? 0,
    prev_close: d.close ?? 0,
    volume: d.volume ?? 0,
    oi: d.oi ?? 0,
    totalbuyqty: d.total_buy_quantity ?? 0,
    totalsellqty: d.total_sell_quantity ?? 0,
    bids: d.depth.buy.map(level),
    asks: d.depth.sell.map(level),
  };
}

/** The quote a Depth tick shows (bid and ask from its book). */
export function quoteOfTick(t: WsMarketData): QuoteData | undefined {
  const d = depthOfTick(t);
  if (!d) return undefined;
  return {
    ltp: d.ltp,
    open: d.open,
    high: d.high,
    low: d.low,
    prev_close: d.prev_close,
    volume: d.volume,
    oi: d.oi,
    bid: d.bids[0]?.price ?? 0,
    ask: d.asks[0]?.price ?? 0,
  };
}
