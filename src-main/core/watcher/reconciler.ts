// Over 300 lines: one settling rule per kind of order action, all read against the same book.
// Unknown outcomes (architecture rule 4): a mutation that timed out or lost its connection may or may
// not have reached the broker. It is never sent again; the order book decides. Pure: the watcher
// feeds it each order book read that started after the mutation's answer. Composite mutations settle
// as a whole: a split or basket is found when every child or leg is a new order in the book ("partly
// placed", found false with the ids that are, or "not placed" once the patience runs out); a
// cancel-all by the account's orders open before it, whatever their strategy, as the gateway's
// cancel-all is account-wide (all cancelled: found; some: "partly cancelled", found false); a
// close-position by new MARKET counter-orders of the strategy. An action OrderDesk stopped before
// recording the answer of (`interrupted`) is matched by time instead (interrupted-match.ts); more
// than one candidate is `undecided`, for the trader to look at, never a guess.
import type { OrderSnapshot } from '../../contract/index.js';
import { describeIntent, matchInterrupted, type InterruptedWant } from './interrupted-match.js';
import type { PlacedOrder, UnknownIntent } from './unknown-intent.js';

export type { PlacedOrder, UnknownIntent } from './unknown-intent.js';

export interface PendingUnknown {
  journalId: string;
  intent: UnknownIntent;
  /** When the unknown answer came (ms). */
  since: number;
  /** Order ids in the book before the call: a placed order must be a new one. */
  known: ReadonlySet<string>;
  /** Order book reads since then. */
  polls: number;
  /** Why the outcome is unknown (the gateway's error), for a window that opens while it is pending. */
  message?: string;
  /**
   * OrderDesk stopped before the answer was recorded (no book before the call): a placing action is
   * settled by the orders placed `from` on (epoch ms) that no other journal entry `claimed` (read
   * at each book read, so an order the trader sends meanwhile is never taken for this one).
   */
  interrupted?: { from: number; claimed: () => ReadonlySet<string>; strategy: string };
}

/** An interrupted placing action the book cannot settle alone: the trader is asked to look. */
export interface Undecided {
  journalId: string;
  operation: UnknownIntent['operation'];
  /** The orders that could be its. */
  orderids: string[];
  message: string;
}

export interface Resolution {
  journalId: string;
  operation: UnknownIntent['operation'];
  found: boolean;
  orderid?: string;
  /** Composite operations: the orders that show the effect (new children or legs, cancelled orders, counter-orders). */
  orderids?: string[];
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

/** A book order's strategy tag, when the gateway reports one, must be the request's. */
const sameStrategy = (o: OrderSnapshot, strategy: string): boolean =>
  o.strategy === undefined || o.strategy === strategy;

function samePlace(o: OrderSnapshot, want: PlacedOrder): boolean {
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
): { resolved: Resolution[]; remaining: PendingUnknown[]; undecided: Undecided[] } {
  const resolved: Resolution[] = [];
  const remaining: PendingUnknown[] = [];
  const undecided: Undecided[] = [];
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
    const want = p.interrupted && interruptedWant(intent, p.interrupted.strategy);
    if (p.interrupted && want) {
      const claimedNow = new Set([...p.interrupted.claimed(), ...claimed]);
      const m = matchInterrupted(want, orders, p.interrupted.from, claimedNow);
      const what = describeIntent(intent);
      if (m.kind === 'exact') {
        for (const id of m.orderids) claimed.add(id);
        resolved.push({
          journalId: p.journalId,
          operation: intent.operation,
          found: true,
          ...(intent.operation === 'placeorder' ? { orderid: m.orderids[0] } : {}),
          orderids: m.orderids,
          message: `${what} took effect: order${m.orderids.length > 1 ? 's' : ''} ${m.orderids.join(', ')} in the order book`,
        });
      } else if (m.kind === 'ambiguous')
        undecided.push({
          journalId: p.journalId,
          operation: intent.operation,
          orderids: m.orderids,
          message: `${what}: the order book has ${m.orderids.length} order(s) that could be its (${m.orderids.join(', ')}) and no way to tell which; check the order book`,
        });
      else if (patient)
        resolved.push({
          journalId: p.journalId,
          operation: intent.operation,
          found: false,
          orderids: [],
          message:
            intent.operation === 'closeposition'
              ? `${what}: no MARKET counter-order in the order book, nothing was closed`
              : `${what} was not placed: no matching order in the order book`,
        });
      else remaining.push(p);
      continue;
    }
    if (intent.operation === 'splitorder' || intent.operation === 'basketorder') {
      const what = intent.operation === 'splitorder' ? 'children' : 'legs';
      // Matched tentatively: only a complete match (or the patience running out) claims them.
      const taken = new Set<string>();
      const ids: string[] = [];
      for (const want of intent.orders) {
        const match = sortedOrders.find(
          (o) =>
            !p.known.has(o.orderid) &&
            !claimed.has(o.orderid) &&
            !taken.has(o.orderid) &&
            sameStrategy(o, intent.strategy) &&
            samePlace(o, want),
        );
        if (match) {
          taken.add(match.orderid);
          ids.push(match.orderid);
        }
      }
      const n = intent.orders.length;
      const settle = (found: boolean, message: string) => {
        for (const id of ids) claimed.add(id);
        resolved.push({
          journalId: p.journalId,
          operation: intent.operation,
          found,
          orderids: ids,
          message,
        });
      };
      if (ids.length === n) settle(true, `all ${n} ${what} were placed (orders ${ids.join(', ')})`);
      else if (!patient) remaining.push(p);
      else if (ids.length > 0)
        settle(
          false,
          `partly placed: ${ids.length} of ${n} ${what} are in the order book (orders ${ids.join(', ')})`,
        );
      else settle(false, `none of the ${n} ${what} is in the order book: it was not placed`);
      continue;
    }
    if (intent.operation === 'cancelallorder') {
      const cancelled: string[] = [];
      const finished: string[] = [];
      const open: string[] = [];
      for (const id of intent.orderids) {
        const o = byId.get(id);
        if (o?.status === 'cancelled') cancelled.push(id);
        else if (o && TERMINAL.has(o.status)) finished.push(`${id} ${o.status}`);
        else open.push(id); // open, or not in the book (yet)
      }
      const settle = (found: boolean, message: string) =>
        resolved.push({
          journalId: p.journalId,
          operation: intent.operation,
          found,
          orderids: cancelled,
          message,
        });
      const rest = [
        ...(finished.length > 0 ? [`not cancelled: ${finished.join(', ')}`] : []),
        ...(open.length > 0 ? [`still open or not in the book: ${open.join(', ')}`] : []),
      ].join('; ');
      const detail = rest ? `; ${rest}` : '';
      if (intent.orderids.length === 0)
        settle(false, 'the account had no open orders before the call: nothing to settle');
      else if (open.length > 0 && !patient) remaining.push(p);
      else if (cancelled.length === intent.orderids.length)
        settle(true, `all ${cancelled.length} open orders are cancelled (${cancelled.join(', ')})`);
      else if (cancelled.length > 0)
        settle(
          false,
          `partly cancelled: ${cancelled.length} of ${intent.orderids.length} (${cancelled.join(', ')})${detail}`,
        );
      else settle(false, `no order was cancelled${detail}`);
      continue;
    }
    if (intent.operation === 'closeposition') {
      const counters = sortedOrders.filter(
        (o) =>
          !p.known.has(o.orderid) &&
          !claimed.has(o.orderid) &&
          o.pricetype === 'MARKET' &&
          sameStrategy(o, intent.strategy),
      );
      const ids = counters.map((o) => o.orderid);
      if (ids.length > 0) {
        for (const id of ids) claimed.add(id);
        resolved.push({
          journalId: p.journalId,
          operation: intent.operation,
          found: true,
          orderids: ids,
          message: `${ids.length} MARKET counter-order(s) of strategy ${intent.strategy} were placed (${ids.join(', ')})`,
        });
      } else if (patient)
        resolved.push({
          journalId: p.journalId,
          operation: intent.operation,
          found: false,
          orderids: [],
          message: `no MARKET counter-order of strategy ${intent.strategy} in the order book: nothing was closed`,
        });
      else remaining.push(p);
      continue;
    }
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
  return { resolved, remaining, undecided };
}

/** What an interrupted placing action asked for; undefined for a modify, a cancel or a cancel-all. */
function interruptedWant(intent: UnknownIntent, strategy: string): InterruptedWant | undefined {
  switch (intent.operation) {
    case 'placeorder':
      return { kind: 'legs', strategy, legs: [intent.order] };
    case 'splitorder':
    case 'basketorder':
      return { kind: 'legs', strategy: intent.strategy, legs: intent.orders };
    case 'closeposition':
      return { kind: 'counter-orders', strategy: intent.strategy };
    default:
      return undefined;
  }
}
