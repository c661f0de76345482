// A strategy's P&L from its legs' trades, exact: per leg the signed units open, the entry average,
// the realised P&L by average cost (a close books (price − average) × quantity) and the unrealised
// at the last price; the strategy's the legs' sums. Rounded to the paisa only when shown.
import { add, compare, moneyOf, over, sub, times, ZERO_MONEY, type Money } from './exact-money.js';

export interface LegTrade {
  action: string;
  quantity: number;
  /** The fill's price, rupees. */
  price: number;
}

export interface LegPnl {
  /** Signed units open (+ long, − short). */
  open: number;
  /** The average price of the trades on the leg's own side; null before one. */
  entryAverage: Money | null;
  realised: Money;
  /** At `ltp`; 0 when flat; null when open without a price. */
  unrealised: Money | null;
}

/** The leg's P&L over its trades in the order they happened; `side` is the leg's own action. */
export function legPnl(side: string, trades: readonly LegTrade[], ltp: number | null): LegPnl {
  let open = 0;
  /** What the open units cost, rupees (≥ 0). */
  let cost = ZERO_MONEY;
  let realised = ZERO_MONEY;
  let entryValue = ZERO_MONEY;
  let entryUnits = 0;
  for (const t of trades) {
    const s = t.action === 'BUY' ? 1 : -1;
    const price = moneyOf(t.price);
    let k = t.quantity;
    if (t.action === side) {
      entryValue = add(entryValue, times(price, k));
      entryUnits += k;
    }
    if (open !== 0 && Math.sign(open) !== s) {
      const closing = Math.min(k, Math.abs(open));
      const part = over(times(cost, closing), Math.abs(open));
      // Long: sold above the average is a profit; short: bought back below it.
      realised = add(realised, times(sub(times(price, closing), part), Math.sign(open)));
      cost = sub(cost, part);
      open += s * closing;
      k -= closing;
    }
    if (k > 0) {
      open += s * k;
      cost = add(cost, times(price, k));
    }
  }
  let unrealised: Money | null = ZERO_MONEY;
  if (open !== 0)
    unrealised = ltp === null ? null : sub(times(moneyOf(ltp), open), times(cost, Math.sign(open)));
  return {
    open,
    entryAverage: entryUnits > 0 ? over(entryValue, entryUnits) : null,
    realised,
    unrealised,
  };
}

export interface StrategyPnl {
  realised: Money;
  unrealised: Money | null;
  pnl: Money | null;
}

export function strategyPnl(legs: readonly LegPnl[]): StrategyPnl {
  let realised = ZERO_MONEY;
  let unrealised: Money | null = ZERO_MONEY;
  for (const l of legs) {
    realised = add(realised, l.realised);
    unrealised = unrealised === null || l.unrealised === null ? null : add(unrealised, l.unrealised);
  }
  return { realised, unrealised, pnl: unrealised === null ? null : add(realised, unrealised) };
}

/** Which of the combined stop and target the P&L has reached (rupees), if either. */
export function reached(
  pnl: Money | null,
  stop: number | undefined,
  target: number | undefined,
): 'stop' | 'target' | undefined {
  if (pnl === null) return undefined;
  if (stop !== undefined && compare(pnl, moneyOf(-stop)) <= 0) return 'stop';
  if (target !== undefined && compare(pnl, moneyOf(target)) >= 0) return 'target';
  return undefined;
}
