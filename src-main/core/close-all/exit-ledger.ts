// The exit orders a flatten has sent, and how much of each position they still cover, so no exit is
// sent twice. An exit whose answer was lost (unknown outcome) is never resent blindly: it covers its
// whole quantity until the order book settles it, either as a new order of its shape there (then it
// is tracked by that order) or, after `patienceMs` and two book reads without one, as never placed.
import type { OrderRecord } from '../../contract/index.js';
import { isFinal } from '../../shared/order-status.js';

/** One MARKET exit of a position (or a freeze-sized slice of it). */
export interface ExitOrder {
  exchange: string;
  symbol: string;
  product: string;
  action: 'BUY' | 'SELL';
  quantity: number;
  pricetype: 'MARKET';
}

interface SentExit {
  order: ExitOrder;
  orderid?: string;
  /** Unknown outcome, not yet settled: the orders in the book before it was sent, and reads since. */
  doubt?: { since: number; known: ReadonlySet<string>; reads: number };
}

/** A position as the position book keys it. */
export function positionKey(p: { exchange: string; symbol: string; product: string }): string {
  return `${p.exchange}|${p.symbol.toUpperCase()}|${p.product}`;
}

function sameShape(o: OrderRecord, want: ExitOrder): boolean {
  return (
    o.symbol.toUpperCase() === want.symbol.toUpperCase() &&
    o.exchange === want.exchange &&
    o.product === want.product &&
    o.action.toUpperCase() === want.action &&
    o.quantity === want.quantity &&
    o.pricetype.toUpperCase() === 'MARKET'
  );
}

/** What is still to fill of a book row: its pending quantity, else quantity less filled. */
function pendingOf(o: OrderRecord): number {
  if (o.pending_quantity !== undefined) return Math.max(0, o.pending_quantity);
  return Math.max(0, o.quantity - (o.filled_quantity ?? 0));
}

export interface ExitLedger {
  /** An exit the gateway accepted. */
  accepted(order: ExitOrder, orderid: string): void;
  /** An exit whose outcome is unknown; `known`: the order ids in the last book read before it was sent. */
  inDoubt(order: ExitOrder, known: ReadonlySet<string>, now: number): void;
  /** Settles exits in doubt against a book read after they were sent. */
  settle(rows: readonly OrderRecord[], now: number): { found: number; notPlaced: number };
  /** Whether a book row is one of the exits (never cancelled by the flatten: it closes a position). */
  isExit(orderid: string): boolean;
  /** Quantity of `action` exits of the position still working or in doubt, by `rows`. */
  covering(key: string, action: ExitOrder['action'], rows: readonly OrderRecord[]): number;
  /** Exits still in doubt. */
  doubtful(): number;
  /** Every exit sent (accepted or in doubt, settled or not), for the figures. */
  sent(): readonly { order: ExitOrder; orderid?: string }[];
}

export function createExitLedger(patienceMs: number): ExitLedger {
  const exits: SentExit[] = [];
  const ids = new Set<string>();
  /** Exits found never placed: they cover nothing and are kept out of `exits`. */
  const dropped: SentExit[] = [];
  return {
    accepted(order, orderid) {
      exits.push({ order, orderid });
      ids.add(orderid);
    },
    inDoubt(order, known, now) {
      exits.push({ order, doubt: { since: now, known, reads: 0 } });
    },
    settle(rows, now) {
      let found = 0;
      let notPlaced = 0;
      // Oldest first, and book rows in id order, so equal slices claim orders in placement order.
      const sorted = [...rows].sort((a, b) => a.orderid.localeCompare(b.orderid));
      for (const e of [...exits]) {
        const doubt = e.doubt;
        if (!doubt) continue;
        doubt.reads += 1;
        const match = sorted.find(
          (o) => !doubt.known.has(o.orderid) && !ids.has(o.orderid) && sameShape(o, e.order),
        );
        if (match) {
          delete e.doubt;
          e.orderid = match.orderid;
          ids.add(match.orderid);
          found++;
        } else if (doubt.reads >= 2 && now - doubt.since >= patienceMs) {
          exits.splice(exits.indexOf(e), 1);
          dropped.push(e);
          notPlaced++;
        }
      }
      return { found, notPlaced };
    },
    isExit: (orderid) => ids.has(orderid),
    covering(key, action, rows) {
      const byId = new Map(rows.map((o) => [o.orderid, o]));
      let n = 0;
      for (const e of exits) {
        if (positionKey(e.order) !== key || e.order.action !== action) continue;
        const row = e.orderid ? byId.get(e.orderid) : undefined;
        // In doubt, or accepted but not in the book yet: its whole quantity may still fill.
        if (!row) n += e.order.quantity;
        else if (!isFinal(row.order_status)) n += pendingOf(row);
      }
      return n;
    },
    doubtful: () => exits.filter((e) => e.doubt).length,
    sent: () =>
      [...exits, ...dropped].map((e) => ({ order: e.order, ...(e.orderid ? { orderid: e.orderid } : {}) })),
  };
}
