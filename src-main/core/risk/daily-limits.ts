// Soft daily limits: a count of the new orders OrderDesk sent today and the day's loss, after either of
// which only exits (orders that reduce an open position) go out. The state lives in the core while it
// runs (soft: a restart starts the count again) and starts again at the IST day change. Money is
// compared exactly, in paise.
import type { DailyLimitName, DailyLimitsState, PositionView, RiskLimits } from '../../contract/index.js';
import { decimalsOf, toScaled } from '../../shared/decimal.js';
import { formatIstIso, formatMoney, formatQty } from '../../shared/format.js';
import type { Clock } from '../../gateway/index.js';
import type { RiskOrder } from './check-order.js';

export type DailyLeg = Pick<RiskOrder, 'symbol' | 'exchange' | 'action' | 'quantity' | 'product'>;

/** What the books say now: open positions and the day's P&L (realised + open MTM), each null until read. */
export interface DailyBooks {
  positions: readonly Pick<PositionView, 'symbol' | 'exchange' | 'product' | 'quantity'>[] | null;
  /** Decimal text (funds' realised M2M + the positions' MTM). */
  dayPnl: string | null;
}

export type DailyVerdict =
  { ok: true; release(): void } | { ok: false; limit: DailyLimitName; message: string };

export interface DailyLimits {
  /**
   * Judges new orders against the limits; an admitted order is counted at once (two quick orders can
   * never both take the last slot), and `release` gives the slot back when it was never sent.
   */
  admit(
    scope: string,
    legs: readonly DailyLeg[],
    limits: Pick<RiskLimits, 'dailyLossLimit' | 'dailyOrderCount'>,
    books: DailyBooks,
  ): DailyVerdict;
  state(
    scope: string,
    limits: Pick<RiskLimits, 'dailyLossLimit' | 'dailyOrderCount'>,
    books: Pick<DailyBooks, 'dayPnl'>,
  ): DailyLimitsState;
}

const SOFT = 'a soft limit, held while OrderDesk runs';
const EXITS = 'only exits (orders that reduce an open position) are allowed until the IST day ends';

/** A money amount (number or decimal text) as whole paise, rounded half away from zero. */
export function toPaise(amount: number | string): bigint {
  const text = typeof amount === 'number' ? undefined : amount.trim();
  if (text !== undefined) {
    const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
    if (!m || (m[2] === '' && !m[3])) throw new RangeError(`not a decimal amount: ${amount}`);
    const fraction = (m[3] ?? '').padEnd(3, '0');
    // The third decimal decides the rounding; later digits cannot change it.
    const thousandths = BigInt(`${m[2] || '0'}${fraction.slice(0, 3)}`);
    const paise = thousandths / 10n + (thousandths % 10n >= 5n ? 1n : 0n);
    return m[1] === '-' ? -paise : paise;
  }
  const n = amount as number;
  const places = Math.max(2, decimalsOf(n));
  const scaled = toScaled(n, places);
  const divisor = 10n ** BigInt(places - 2);
  const magnitude = scaled < 0n ? -scaled : scaled;
  const rounded = (magnitude + divisor / 2n) / divisor;
  return scaled < 0n ? -rounded : rounded;
}

/** Realised + open MTM as decimal text, exact; null while either is unknown. */
export function dayPnlText(
  realisedMtm: string | null | undefined,
  totalMtm: number | null | undefined,
): string | null {
  if (realisedMtm == null || totalMtm == null) return null;
  const paise = toPaise(realisedMtm) + toPaise(totalMtm);
  const sign = paise < 0n ? '-' : '';
  const abs = paise < 0n ? -paise : paise;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

const positionKey = (p: { exchange: string; symbol: string; product: string }) =>
  `${p.exchange}:${p.symbol.toUpperCase()}:${p.product}`;

/**
 * True when every leg reduces an open position of the same symbol, exchange and product without
 * reversing it (legs on one position are taken in turn). Unknown positions make nothing an exit.
 */
export function allExits(legs: readonly DailyLeg[], positions: DailyBooks['positions']): boolean {
  if (!positions || legs.length === 0) return false;
  const open = new Map<string, number>();
  for (const p of positions) open.set(positionKey(p), (open.get(positionKey(p)) ?? 0) + p.quantity);
  for (const leg of legs) {
    const key = positionKey(leg);
    const q = open.get(key) ?? 0;
    const reduces = leg.action === 'SELL' ? q > 0 && leg.quantity <= q : q < 0 && leg.quantity <= -q;
    if (!reduces) return false;
    open.set(key, leg.action === 'SELL' ? q - leg.quantity : q + leg.quantity);
  }
  return true;
}

export function createDailyLimits(clock: Pick<Clock, 'now'>): DailyLimits {
  /** Per profile: its own account, its own count. */
  const counts = new Map<string, { day: string; orders: number }>();
  const today = () => formatIstIso(clock.now()).slice(0, 10);

  function entry(scope: string): { day: string; orders: number } {
    const day = today();
    let e = counts.get(scope);
    // A new IST day starts the count again.
    if (!e || e.day !== day) {
      e = { day, orders: 0 };
      counts.set(scope, e);
    }
    return e;
  }

  function lossReached(limit: number, dayPnl: string | null): boolean | undefined {
    if (!(limit > 0)) return false;
    if (dayPnl === null) return undefined;
    return toPaise(dayPnl) <= -toPaise(limit);
  }

  return {
    admit(scope, legs, limits, books) {
      const e = entry(scope);
      const n = legs.length;
      const countOn = limits.dailyOrderCount > 0;
      const overCount = countOn && e.orders + n > limits.dailyOrderCount;
      const loss = lossReached(limits.dailyLossLimit, books.dayPnl);
      if ((overCount || loss !== false) && !allExits(legs, books.positions)) {
        if (overCount) {
          const left = Math.max(0, limits.dailyOrderCount - e.orders);
          const what = left === 0 ? 'reached' : `${formatQty(left)} left, ${formatQty(n)} asked`;
          return {
            ok: false,
            limit: 'dailyOrderCount',
            message: `Daily order count ${what}: ${formatQty(e.orders)} of ${formatQty(limits.dailyOrderCount)} orders sent today; ${EXITS} (${SOFT})`,
          };
        }
        return {
          ok: false,
          limit: 'dailyLossLimit',
          message:
            loss === undefined
              ? `Daily loss limit of ${formatMoney(limits.dailyLossLimit)} cannot be checked: the day's P&L is not known yet; ${EXITS.replace(' until the IST day ends', ' until it is')} (${SOFT})`
              : `Daily loss limit of ${formatMoney(limits.dailyLossLimit)} reached: the day's P&L is ${formatMoney(Number(books.dayPnl))}; ${EXITS} (${SOFT})`,
        };
      }
      e.orders += n;
      let released = false;
      return {
        ok: true,
        release() {
          // Only once, and only into the day it was taken from.
          if (released) return;
          released = true;
          const now = counts.get(scope);
          if (now === e) e.orders = Math.max(0, e.orders - n);
        },
      };
    },
    state(scope, limits, books) {
      const e = entry(scope);
      const countReached = limits.dailyOrderCount > 0 && e.orders >= limits.dailyOrderCount;
      const loss = lossReached(limits.dailyLossLimit, books.dayPnl);
      return {
        day: e.day,
        ordersToday: e.orders,
        orderLimit: limits.dailyOrderCount,
        lossLimit: limits.dailyLossLimit,
        dayPnl: books.dayPnl,
        reached: countReached ? 'dailyOrderCount' : loss === true ? 'dailyLossLimit' : null,
      };
    },
  };
}
