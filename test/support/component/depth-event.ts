// A depth event for SBIN on NSE as the host sends it: five levels a side around 905.30, each event
// with the next sequence number so the desk takes it as newer than the last.
import type { MarketDepthEvent } from '@contract';

let seq = 100;

export function depthEvent(over: Partial<MarketDepthEvent> = {}): MarketDepthEvent & { seq: number } {
  return {
    profileId: 'paper',
    time: 1_700_000_000_000,
    symbol: 'SBIN',
    exchange: 'NSE',
    ltp: 905.3,
    change: 4.55,
    changePercent: 0.5,
    open: 901,
    high: 910,
    low: 899.5,
    prevClose: 900.75,
    volume: 1234567,
    oi: 0,
    bids: [905.25, 905.2, 905.15, 905.1, 905.05].map((price, i) => ({ price, quantity: 100 * (i + 1) })),
    asks: [905.35, 905.4, 905.45, 905.5, 905.55].map((price, i) => ({ price, quantity: 50 * (i + 1) })),
    totalBuyQty: 1500,
    totalSellQty: 750,
    ltq: 10,
    ...over,
    seq: ++seq,
  };
}
