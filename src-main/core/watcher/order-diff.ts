// Order book → order events, pure. The seen state holds, per order id, what was last reported; a
// change between it and the book becomes events. The dedupe key is what the gateway docs suggest
// (orderid + status + filled quantity), so a poll that sees the same state twice says nothing.
import type { OrderRecord, OrderSnapshot } from '../../contract/index.js';
import { isFinal, isWorking } from '../../shared/order-status.js';

export interface SeenOrder {
  status: string;
  filled: number;
  quantity: number;
  price: number;
  triggerPrice: number;
}

export type OrderChange =
  | { type: 'orders.accepted'; order: OrderSnapshot }
  | { type: 'orders.partial'; order: OrderSnapshot; lastFillQuantity: number }
  | { type: 'orders.filled'; order: OrderSnapshot; lastFillQuantity: number }
  | { type: 'orders.rejected'; order: OrderSnapshot; reason: string }
  | { type: 'orders.cancelled'; order: OrderSnapshot }
  | {
      type: 'orders.modified';
      order: OrderSnapshot;
      previous: { quantity: number; price: number; triggerPrice: number };
    };

export const isActive: (status: string) => boolean = isWorking;

/**
 * A row older than what was already seen: filled less, or working again after a final status. It
 * happens when a poll that was sent before a feed update crossed it answers after it; such a row is
 * neither news nor stored (storing it would make the newer state news a second time).
 */
export function isBehind(prev: SeenOrder, next: SeenOrder): boolean {
  return next.filled < prev.filled || (isFinal(prev.status) && !isFinal(next.status));
}

/** Filled quantity, also for gateways whose rows lack `filled_quantity` (complete means all of it). */
function filledOf(o: OrderRecord): number {
  if (o.filled_quantity !== undefined) return o.filled_quantity;
  return o.order_status === 'complete' ? o.quantity : 0;
}

export function toSnapshot(o: OrderRecord): OrderSnapshot {
  const snap: OrderSnapshot = {
    orderid: o.orderid,
    symbol: o.symbol,
    exchange: o.exchange,
    action: o.action.toUpperCase(),
    product: o.product,
    pricetype: o.pricetype,
    quantity: o.quantity,
    filledQuantity: filledOf(o),
    price: o.price,
    triggerPrice: o.trigger_price,
    averagePrice: o.average_price ?? 0,
    status: o.order_status,
    timestamp: o.timestamp,
  };
  if (o.rejection_reason) snap.rejectionReason = o.rejection_reason;
  if (o.strategy) snap.strategy = o.strategy;
  return snap;
}

export function toSeen(s: OrderSnapshot): SeenOrder {
  return {
    status: s.status,
    filled: s.filledQuantity,
    quantity: s.quantity,
    price: s.price,
    triggerPrice: s.triggerPrice,
  };
}

function sameSeen(a: SeenOrder, b: SeenOrder): boolean {
  return (
    a.status === b.status &&
    a.filled === b.filled &&
    a.quantity === b.quantity &&
    a.price === b.price &&
    a.triggerPrice === b.triggerPrice
  );
}

/** The events between what was seen of one order (undefined: never seen) and its row now. */
export function orderChanges(prev: SeenOrder | undefined, order: OrderSnapshot): OrderChange[] {
  const out: OrderChange[] = [];
  const status = order.status;
  const before = prev ?? {
    status: '',
    filled: 0,
    quantity: order.quantity,
    price: order.price,
    triggerPrice: order.triggerPrice,
  };
  if (!prev) {
    if (status === 'rejected') {
      out.push({ type: 'orders.rejected', order, reason: order.rejectionReason ?? '' });
      return out;
    }
    out.push({ type: 'orders.accepted', order });
  } else if (isActive(prev.status) && isActive(status)) {
    if (
      prev.quantity !== order.quantity ||
      prev.price !== order.price ||
      prev.triggerPrice !== order.triggerPrice
    )
      out.push({
        type: 'orders.modified',
        order,
        previous: { quantity: prev.quantity, price: prev.price, triggerPrice: prev.triggerPrice },
      });
  }
  const newlyFilled = order.filledQuantity - before.filled;
  if (status === 'complete' && before.status !== 'complete') {
    out.push({ type: 'orders.filled', order, lastFillQuantity: Math.max(0, newlyFilled) });
  } else if (newlyFilled > 0 && status !== 'complete') {
    out.push({ type: 'orders.partial', order, lastFillQuantity: newlyFilled });
  }
  if (status === 'cancelled' && before.status !== 'cancelled') out.push({ type: 'orders.cancelled', order });
  if (status === 'rejected' && prev && prev.status !== 'rejected')
    out.push({ type: 'orders.rejected', order, reason: order.rejectionReason ?? '' });
  return out;
}

export interface OrderDiff {
  changes: OrderChange[];
  /** Seen state to store for the orders that changed (or are new). */
  updates: Map<string, SeenOrder>;
}

/**
 * Diffs a whole book. `seen` undefined means no baseline yet: the book becomes the baseline and
 * nothing is reported (history at start-up is not news).
 */
export function diffOrderBook(
  seen: ReadonlyMap<string, SeenOrder> | undefined,
  orders: readonly OrderRecord[],
): OrderDiff {
  const changes: OrderChange[] = [];
  const updates = new Map<string, SeenOrder>();
  for (const row of orders) {
    const snap = toSnapshot(row);
    const next = toSeen(snap);
    const prev = seen?.get(snap.orderid);
    if (prev && (sameSeen(prev, next) || isBehind(prev, next))) continue;
    updates.set(snap.orderid, next);
    if (seen) changes.push(...orderChanges(prev, snap));
  }
  return { changes, updates };
}
