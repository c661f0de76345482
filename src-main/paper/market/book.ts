// A plausible 5-level book around the last price, hashed per second: best ask >= ltp >= best bid,
// consecutive tick steps, lot-size multiples for derivatives, and totals deeper than the levels shown.
import { hash2, hash3, unit } from './hash.js';

export interface TickLevel {
  /** Price in ticks; 0 for an empty level (an option quoted at one tick has nothing below). */
  ticks: number;
  quantity: number;
}

export interface TickBook {
  bids: TickLevel[];
  asks: TickLevel[];
  totalBuy: number;
  totalSell: number;
}

export interface BookParams {
  /** Last price in ticks. */
  ltp: number;
  /** Epoch second the book is for. */
  sec: number;
  keyHash: number;
  /** Rupee value of one tick, to size cash quantities by price. */
  tick: number;
  /** Lot size for derivatives; 0 for cash. */
  lot: number;
  levels?: number;
}

export function buildBook(p: BookParams): TickBook {
  const n = p.levels ?? 5;
  const h = hash3(p.keyHash, p.sec, 0xb00c);
  const spread = 1 + (h % 3);
  let ask = p.ltp + ((h >>> 4) % (spread + 1));
  let bid = ask - spread;
  if (bid < 1) {
    // Floor-priced instruments: keep a one-tick bid and lift the ask so the book never locks.
    bid = Math.min(1, p.ltp);
    ask = Math.max(ask, bid + 1);
  }
  const price = p.ltp * p.tick;
  const cashBase = Math.min(5000, Math.max(5, 300_000 / Math.max(price, 1)));
  const qty = (side: number, i: number): number => {
    const u = unit(hash3(h, side, i));
    if (p.lot > 0) return p.lot * (1 + Math.floor(u * u * 30));
    return Math.max(1, Math.round(cashBase * (0.15 + 1.85 * u)));
  };
  const bids: TickLevel[] = [];
  const asks: TickLevel[] = [];
  let shownBuy = 0;
  let shownSell = 0;
  for (let i = 0; i < n; i++) {
    const b = bid - i;
    const bq = b >= 1 ? qty(1, i) : 0;
    bids.push({ ticks: b >= 1 ? b : 0, quantity: bq });
    shownBuy += bq;
    const aq = qty(2, i);
    asks.push({ ticks: ask + i, quantity: aq });
    shownSell += aq;
  }
  // Totals cover the whole book, of which the five levels are only the top.
  const depth = (salt: number): number => 3 + 15 * unit(hash2(h, salt));
  const roundTo = Math.max(1, p.lot);
  return {
    bids,
    asks,
    totalBuy: Math.round((shownBuy * depth(7)) / roundTo) * roundTo,
    totalSell: Math.round((shownSell * depth(8)) / roundTo) * roundTo,
  };
}
