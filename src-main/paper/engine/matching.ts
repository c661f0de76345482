// Fills against the simulated 5-level book (Decision 6). A book snapshot is good for one second
// (the simulator refreshes it every second); liquidity taken from a level in that second is gone
// for every order until the next snapshot, so a large order walks the book, fills partially and
// completes over later ticks.
import type { BookLevel } from '../market/market.js';
import { toUnits } from './units.js';

export interface Fill {
  /** Units of ₹0.0001. */
  price: number;
  quantity: number;
}

interface Taken {
  second: number;
  /** price units → quantity already taken in this second. */
  byPrice: Map<number, number>;
}

export class LiquidityTracker {
  private readonly taken = new Map<string, Taken>();

  /**
   * Walks `levels` (best first) for up to `quantity`, skipping what was already taken this second.
   * `within(price)` stops the walk at the first level beyond a limit.
   */
  walk(
    key: string,
    second: number,
    levels: readonly BookLevel[],
    quantity: number,
    within?: (price: number) => boolean,
  ): Fill[] {
    return this.take(key, second, levels, quantity, within, false, undefined);
  }

  /**
   * walk() for the engine's hot path: the limit as a number (a BUY takes levels at or below it, a
   * SELL at or above), so no closure is built per order.
   */
  walkUpTo(
    key: string,
    second: number,
    levels: readonly BookLevel[],
    quantity: number,
    buy: boolean,
    limit: number | undefined,
  ): Fill[] {
    return this.take(key, second, levels, quantity, undefined, buy, limit);
  }

  private take(
    key: string,
    second: number,
    levels: readonly BookLevel[],
    quantity: number,
    within: ((price: number) => boolean) | undefined,
    buy: boolean,
    limit: number | undefined,
  ): Fill[] {
    let t = this.taken.get(key);
    if (!t || t.second !== second) {
      t = { second, byPrice: new Map() };
      this.taken.set(key, t);
    }
    const fills: Fill[] = [];
    let left = quantity;
    for (const level of levels) {
      if (left <= 0) break;
      const price = toUnits(level.price);
      if (price <= 0 || (within !== undefined && !within(price))) break;
      if (limit !== undefined && (buy ? price > limit : price < limit)) break;
      const used = t.byPrice.get(price) ?? 0;
      const free = Math.max(0, Math.floor(level.quantity) - used);
      if (free <= 0) continue;
      const q = Math.min(free, left);
      fills.push({ price, quantity: q });
      t.byPrice.set(price, used + q);
      left -= q;
    }
    return fills;
  }

  /** Forgets snapshots older than `second` (called from the ticker to bound memory). */
  prune(second: number): void {
    for (const [k, t] of this.taken) if (t.second < second) this.taken.delete(k);
  }

  clear(): void {
    this.taken.clear();
  }
}
