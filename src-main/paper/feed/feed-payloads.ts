// What the paper feed sends, built from the simulator and the engine: `market_data` payloads per mode
// in the Zerodha adapter's shape (gateway-behaviour §13: LTP, then Quote's fields, then Depth's
// `depth.buy/sell`), and `order_update` events. The data comes straight from `market.book()`, the
// book REST /depth answers from, so a depth tick and a REST depth of the same instant agree.
import type { PaperOrder } from '../engine/engine.js';
import type { Book } from '../market/market.js';

/** Subscription modes: 1 LTP, 2 Quote, 3 Depth. */
export type FeedMode = 1 | 2 | 3;
export const MODE_LABEL: Record<FeedMode, 'LTP' | 'Quote' | 'Depth'> = { 1: 'LTP', 2: 'Quote', 3: 'Depth' };

export const FEED_BROKER = 'paper';

export interface FeedInstrument {
  symbol: string;
  exchange: string;
}

/** The `data` of a market_data message; without `timestamp`, so two seconds' payloads compare. */
export function tickData(i: FeedInstrument, mode: FeedMode, book: Book): Record<string, unknown> {
  const ltp = { symbol: i.symbol, exchange: i.exchange, mode: MODE_LABEL[mode].toLowerCase(), ltp: book.ltp };
  if (mode === 1) return ltp;
  const quote = {
    ...ltp,
    volume: Math.round(book.volume),
    last_quantity: book.ltq,
    total_buy_quantity: book.totalbuyqty,
    total_sell_quantity: book.totalsellqty,
    open: book.open,
    high: book.high,
    low: book.low,
    // Zerodha's `close` is the previous session's close.
    close: book.prev_close,
    oi: book.oi,
  };
  if (mode === 2) return quote;
  const level = (l: { price: number; quantity: number }) => ({ price: l.price, quantity: l.quantity });
  return {
    ...quote,
    depth: { buy: book.bids.slice(0, 5).map(level), sell: book.asks.slice(0, 5).map(level) },
  };
}

/** A whole market_data message: `mode` is the subscriber's mode, as upstream. */
export function marketDataMessage(
  i: FeedInstrument,
  mode: FeedMode,
  data: Record<string, unknown>,
  nowMs: number,
): string {
  return JSON.stringify({
    type: 'market_data',
    symbol: i.symbol,
    exchange: i.exchange,
    mode,
    data: { ...data, ltt: nowMs, timestamp: nowMs },
    broker: FEED_BROKER,
  });
}

/** An order's new state as upstream's sandbox streams it (`mode: "analyze"`). */
export function orderUpdateMessage(o: PaperOrder): string {
  return JSON.stringify({
    type: 'order_update',
    mode: 'analyze',
    broker: FEED_BROKER,
    user_id: o.account,
    orderid: o.orderid,
    symbol: o.symbol,
    exchange: o.exchange,
    action: o.action,
    quantity: o.quantity,
    price: o.price,
    trigger_price: o.trigger_price,
    pricetype: o.pricetype,
    product: o.product,
    order_status: o.status,
    filled_quantity: o.filled_quantity,
    pending_quantity:
      o.status === 'open' || o.status === 'trigger pending' ? o.quantity - o.filled_quantity : 0,
    average_price: o.average_price,
    rejection_reason: o.rejection_reason,
    strategy: o.strategy,
    timestamp: o.updated_ms,
  });
}
