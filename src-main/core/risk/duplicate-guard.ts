// The duplicate guard: the same order (symbol, exchange, action, quantity, price, product,
// pricetype) again within the window needs an explicit confirmation. Admission records the order,
// so two quick clicks cannot both pass the check before either is recorded.
import { formatMoney, formatQty } from '../../shared/format.js';
import type { Clock } from '../ports.js';
import type { RiskOrder, RiskResult } from './check-order.js';

export type DuplicateOrder = Omit<RiskOrder, 'trigger_price'>;

export interface DuplicateGuardOptions {
  clock: Pick<Clock, 'now'>;
  /** A function so that a settings change applies at once. */
  windowMs: number | (() => number);
}

export interface AdmitOptions {
  confirmDuplicate?: boolean;
  /** Keeps profiles apart: the same order on two profiles is not a duplicate. */
  scope?: string;
}

export interface DuplicateGuard {
  /** Checks and, when admitted, records the order. */
  admit(order: DuplicateOrder, options?: AdmitOptions): RiskResult;
  /**
   * Records an order sent at `atMs` by an earlier run or another process (the journal says so), so
   * the window counts from then; one sent longer ago than the window is ignored.
   */
  remember(order: DuplicateOrder, atMs: number, options?: Pick<AdmitOptions, 'scope'>): void;
  /** Forgets everything (profile switch, tests). */
  clear(): void;
}

function keyOf(o: DuplicateOrder, scope: string): string {
  return JSON.stringify([
    scope,
    o.symbol.trim().toUpperCase(),
    o.exchange,
    o.action,
    o.quantity,
    o.price,
    o.product,
    o.pricetype,
  ]);
}

function describe(o: DuplicateOrder): string {
  const at = o.pricetype === 'MARKET' || o.pricetype === 'SL-M' ? 'MARKET' : `@ ${formatMoney(o.price)}`;
  return `${o.action} ${formatQty(o.quantity)} ${o.symbol} ${o.exchange} ${at} ${o.pricetype} ${o.product}`;
}

export function createDuplicateGuard(options: DuplicateGuardOptions): DuplicateGuard {
  const windowMs = typeof options.windowMs === 'number' ? () => options.windowMs as number : options.windowMs;
  const lastSeen = new Map<string, number>();

  function prune(now: number, window: number): void {
    for (const [k, t] of lastSeen) if (now - t >= window) lastSeen.delete(k);
  }

  return {
    admit(order, opts = {}) {
      const now = options.clock.now();
      const window = windowMs();
      prune(now, window);
      const key = keyOf(order, opts.scope ?? '');
      const previous = lastSeen.get(key);
      if (previous !== undefined && !opts.confirmDuplicate) {
        const ago = ((now - previous) / 1000).toFixed(1);
        return {
          ok: false,
          reasons: [
            `The same order (${describe(order)}) was sent ${ago} s ago, within your duplicate window of ${(window / 1000).toFixed(1)} s; confirm to send it again`,
          ],
        };
      }
      if (window > 0) lastSeen.set(key, now);
      return { ok: true };
    },
    remember(order, atMs, opts = {}) {
      const now = options.clock.now();
      // A time ahead of this clock (another process's) counts as now.
      const at = Math.min(atMs, now);
      if (now - at >= windowMs()) return;
      const key = keyOf(order, opts.scope ?? '');
      lastSeen.set(key, Math.max(lastSeen.get(key) ?? at, at));
    },
    clear: () => lastSeen.clear(),
  };
}
