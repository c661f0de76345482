// An order action OrderDesk sent but never recorded an answer for (it stopped during the call) has no
// "order book before the call" to compare with. What it placed is told apart from other orders by
// what it asked for, by time (placed at or after the intent, less a clock-skew allowance) and by not
// being any other journal entry's order. Pure: the caller hands in the book and the claimed ids.
import type { OrderSnapshot } from '../../contract/index.js';
import type { PlacedOrder, UnknownIntent } from './unknown-intent.js';

/** What an interrupted placing action asked for: its legs, or a close's MARKET counter-orders. */
export type InterruptedWant =
  | { kind: 'legs'; strategy: string; legs: readonly PlacedOrder[] }
  | { kind: 'counter-orders'; strategy: string };

export type InterruptedMatch =
  /** As many orders as legs, one set per leg shape (a close: its counter-orders). */
  | { kind: 'exact'; orderids: string[] }
  | { kind: 'none' }
  /** More candidates than legs, or fewer but some: only the trader can tell which. */
  | { kind: 'ambiguous'; orderids: string[] };

/** The gateway's clock may run behind ours, and its stamps keep whole seconds only. */
export const CLOCK_SKEW_MS = 30_000;

const IST_OFFSET_MS = 19_800_000;
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
/** `22-Nov-2026 10:15:03` (the spec, the paper gateway). */
const DMY = /^(\d{1,2})-([A-Za-z]{3})-(\d{4}) (\d{1,2}):(\d{2}):(\d{2})$/;
/** `2026-11-22 10:15:03` (Zerodha, the sandbox). */
const YMD = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2}):(\d{2})$/;

/** Epoch ms of a book timestamp (IST wall clock); undefined when its shape is not one of the above. */
export function orderTimeMs(timestamp: string): number | undefined {
  const text = timestamp.trim();
  let parts: number[] | undefined;
  const dmy = DMY.exec(text);
  if (dmy) {
    const month = MONTHS.indexOf((dmy[2] ?? '').toUpperCase());
    if (month >= 0)
      parts = [Number(dmy[3]), month, Number(dmy[1]), Number(dmy[4]), Number(dmy[5]), Number(dmy[6])];
  }
  const ymd = YMD.exec(text);
  if (ymd)
    parts = [
      Number(ymd[1]),
      Number(ymd[2]) - 1,
      Number(ymd[3]),
      Number(ymd[4]),
      Number(ymd[5]),
      Number(ymd[6]),
    ];
  if (!parts) return undefined;
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0] = parts;
  return Date.UTC(y, mo, d, h, mi, s) - IST_OFFSET_MS;
}

/** Whether an order of this price type rests at its price (so the price tells it apart). */
export function restsAtPrice(pricetype: string): boolean {
  return pricetype === 'LIMIT' || pricetype === 'SL';
}

/**
 * The fields that tell one order from another, as one comparable key; the price only where the order
 * rests at one. Shared by the match of an interrupted action and the hold on an identical twin.
 */
export function orderShapeKey(
  o: Pick<PlacedOrder, 'symbol' | 'exchange' | 'action' | 'quantity' | 'pricetype' | 'product' | 'price'>,
): string {
  return JSON.stringify([
    o.symbol.toUpperCase(),
    o.exchange.toUpperCase(),
    o.action.toUpperCase(),
    o.quantity,
    o.pricetype.toUpperCase(),
    o.product.toUpperCase(),
    restsAtPrice(o.pricetype) ? o.price : null,
  ]);
}

/**
 * The book's orders an interrupted action may have placed: `from` on (epoch ms; the intent's time
 * less the skew allowance), not `claimed` by another journal entry, of the strategy when the gateway
 * tags orders with one. A stamp that cannot be read is kept: a real order must never be missed.
 */
export function matchInterrupted(
  want: InterruptedWant,
  orders: readonly OrderSnapshot[],
  from: number,
  claimed: ReadonlySet<string>,
): InterruptedMatch {
  const candidates = orders.filter((o) => {
    if (claimed.has(o.orderid)) return false;
    if (o.strategy !== undefined && o.strategy !== want.strategy) return false;
    const at = orderTimeMs(o.timestamp);
    return at === undefined || at >= from;
  });
  if (want.kind === 'counter-orders') {
    const ids = candidates.filter((o) => o.pricetype.toUpperCase() === 'MARKET').map((o) => o.orderid);
    return ids.length > 0 ? { kind: 'exact', orderids: ids.sort() } : { kind: 'none' };
  }
  const wanted = new Map<string, number>();
  for (const leg of want.legs) wanted.set(orderShapeKey(leg), (wanted.get(orderShapeKey(leg)) ?? 0) + 1);
  const found = new Map<string, string[]>();
  for (const o of candidates) {
    const shape = orderShapeKey(o);
    if (wanted.has(shape)) found.set(shape, [...(found.get(shape) ?? []), o.orderid]);
  }
  const ids = [...found.values()].flat().sort();
  if (ids.length === 0) return { kind: 'none' };
  const exact = [...wanted].every(([shape, n]) => found.get(shape)?.length === n);
  return exact ? { kind: 'exact', orderids: ids } : { kind: 'ambiguous', orderids: ids };
}

const legText = (o: PlacedOrder) => `${o.action} ${o.quantity} ${o.symbol} ${o.exchange}`;

/** An order action in a trader's words, for alerts and resolutions: `placeorder BUY 10 SBIN NSE`. */
export function describeIntent(intent: UnknownIntent): string {
  switch (intent.operation) {
    case 'placeorder':
      return `placeorder ${legText(intent.order)}`;
    case 'splitorder': {
      const total = intent.orders.reduce((sum, o) => sum + o.quantity, 0);
      const first = intent.orders[0];
      return first
        ? `splitorder ${legText({ ...first, quantity: total })} in ${intent.orders.length} orders`
        : 'splitorder';
    }
    case 'basketorder':
      return `basketorder of ${intent.orders.length} legs (${intent.orders.map(legText).join(', ')})`;
    case 'closeposition':
      return `closeposition of strategy ${intent.strategy}`;
    case 'cancelallorder':
      return `cancelallorder of strategy ${intent.strategy}`;
    case 'modifyorder':
      return `modifyorder of order ${intent.orderid}`;
    case 'cancelorder':
      return `cancelorder of order ${intent.orderid}`;
  }
}
