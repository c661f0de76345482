// Unknown outcomes (architecture rule 4): a mutation that timed out or lost its connection may or may
// not have reached the broker. It is never sent again; the order book decides. Pure: the watcher
// feeds it each order book read that started after the mutation's answer.
import type { OrderSnapshot } from '../../contract/index.js';

export type UnknownIntent =
  | {
      operation: 'placeorder';
      order: {
        symbol: string;
        exchange: string;
        action: string;
        quantity: number;
        pricetype: string;
        product: string;
        price: number;
      };
    }
  | {
      operation: 'modifyorder';
      orderid: string;
      changes: { quantity: number; price: number; trigger_price: number };
    }
  | { operation: 'cancelorder'; orderid: string };

export interface PendingUnknown {
  journalId: string;
  intent: UnknownIntent;
  /** When the unknown answer came (ms). */
  since: number;
  /** Order ids in the book before the call: a placed order must be a new one. */
  known: ReadonlySet<string>;
  /** Order book reads since then. */
  polls: number;
}

export interface Resolution {
  journalId: string;
  operation: UnknownIntent['operation'];
  found: boolean;
  orderid?: string;
  message: string;
}

export interface Patience {
  /** Reads of the book before "not found" is concluded. */
  polls: number;
  /** And time since the answer: a slow gateway may still be acting on the request. */
  ms: number;
}

export const DEFAULT_PATIENCE: Patience = { polls: 2, ms: 5_000 };

const TERMINAL = new Set(['complete', 'cancelled', 'rejected']);

function samePlace(
  o: OrderSnapshot,
  want: Extract<UnknownIntent, { operation: 'placeorder' }>['order'],
): boolean {
  const priced = want.pricetype === 'LIMIT' || want.pricetype === 'SL';
  return (
    o.symbol.toUpperCase() === want.symbol.toUpperCase() &&
    o.exchange === want.exchange &&
    o.action.toUpperCase() === want.action.toUpperCase() &&
    o.quantity === want.quantity &&
    o.product === want.product &&
    o.pricetype === want.pricetype &&
    (!priced || o.price === want.price)
  );
}

/** One read of the book: which pending outcomes it settles, and which wait on. */
export function reconcile(
  pending: readonly PendingUnknown[],
  orders: readonly OrderSnapshot[],
  now: number,
  patience: Patience = DEFAULT_PATIENCE,
): { resolved: Resolution[]; remaining: PendingUnknown[] } {
  const resolved: Resolution[] = [];
  const remaining: PendingUnknown[] = [];
  const claimed = new Set<string>();
  const byId = new Map(orders.map((o) => [o.orderid, o]));
  // Oldest first, so that two identical unknown orders claim the book's orders in placement order.
  const sorted = [...pending].sort((a, b) => a.since - b.since);
  const sortedOrders = [...orders].sort((a, b) => a.orderid.localeCompare(b.orderid));
  for (const p0 of sorted) {
    const p = { ...p0, polls: p0.polls + 1 };
    const patient = p.polls >= patience.polls && now - p.since >= patience.ms;
    const done = (found: boolean, message: string, orderid?: string) =>
      resolved.push({
        journalId: p.journalId,
        operation: p.intent.operation,
        found,
        message,
        ...(orderid ? { orderid } : {}),
      });
    const intent = p.intent;
    if (intent.operation === 'placeorder') {
      const match = sortedOrders.find(
        (o) => !p.known.has(o.orderid) && !claimed.has(o.orderid) && samePlace(o, intent.order),
      );
      if (match) {
        claimed.add(match.orderid);
        done(
          true,
          `order ${match.orderid} was placed (found in the order book, ${match.status})`,
          match.orderid,
        );
      } else if (patient) done(false, 'no matching order in the order book: it was not placed');
      else remaining.push(p);
      continue;
    }
    const o = byId.get(intent.orderid);
    if (intent.operation === 'cancelorder') {
      if (o?.status === 'cancelled') done(true, `order ${intent.orderid} is cancelled`, intent.orderid);
      else if (o && TERMINAL.has(o.status))
        done(false, `order ${intent.orderid} was not cancelled: it is ${o.status}`, intent.orderid);
      else if (patient) done(false, `order ${intent.orderid} was not cancelled`, intent.orderid);
      else remaining.push(p);
      continue;
    }
    const c = intent.changes;
    const applied =
      o !== undefined &&
      o.quantity === c.quantity &&
      (c.price === 0 || o.price === c.price) &&
      (c.trigger_price === 0 || o.triggerPrice === c.trigger_price);
    if (applied) done(true, `order ${intent.orderid} shows the change`, intent.orderid);
    else if (o && TERMINAL.has(o.status))
      done(false, `order ${intent.orderid} was not modified: it is ${o.status}`, intent.orderid);
    else if (patient) done(false, `order ${intent.orderid} does not show the change`, intent.orderid);
    else remaining.push(p);
  }
  return { resolved, remaining };
}
