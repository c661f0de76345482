// One-cancels-other, held by the core: from what the gateway's book says of an entry and its two
// protective legs, what to send so each side's working orders cover exactly the open quantity (one
// order a side, or parts of at most the freeze quantity). A leg whose last request has no answer yet
// (or an unknown outcome) is left alone until the book settles it: nothing is ever sent twice. A leg the gateway refused is reported, never retried unasked.

export type LegName = 'stop' | 'target';

/** One order the core sent for a leg, as the book (or the journal, before any answer) has it. */
export type LegOrder =
  /** Sent, and its outcome is not in the book yet (no answer, or an unknown outcome). */
  | { status: 'pending' }
  /** Resting at the gateway: `quantity` is the order's total, `filled` of it done. */
  | { status: 'working'; orderid: string; quantity: number; filled: number }
  /** Ended (complete, or cancelled by the core): `filled` of it done. */
  | { status: 'ended'; filled: number }
  /** Rejected, or cancelled by the gateway or broker: `filled` of it done, with its words. */
  | { status: 'refused'; filled: number; reason: string };

export interface BracketBook {
  /** The entry's filled quantity so far. */
  entryFilled: number;
  /** Each leg the protection has (a stop-only bracket has no target), its orders oldest first. */
  stop?: readonly LegOrder[];
  target?: readonly LegOrder[];
  /** The exchange's freeze quantity: no order above it, a side's cover is split (none: one order). */
  freeze?: number;
}

export type OcoAction =
  | { kind: 'place'; leg: LegName; quantity: number }
  /** The order's new total quantity (filled + what is left to cover). */
  | { kind: 'modify'; leg: LegName; orderid: string; quantity: number }
  | { kind: 'cancel'; leg: LegName; orderid: string }
  /** More went out through the legs than the entry filled: the position is reversed by `excess`. */
  | { kind: 'overshoot'; excess: number }
  /** The gateway refused the leg's last order and the open quantity has no cover on that side. */
  | { kind: 'unprotected'; leg: LegName; quantity: number; reason: string };

const filledOf = (orders: readonly LegOrder[] | undefined): number =>
  (orders ?? []).reduce((n, o) => n + (o.status === 'pending' ? 0 : o.filled), 0);

/** The open quantity: what the entry filled less what either leg closed. */
export function openQuantity(b: BracketBook): number {
  return b.entryFilled - filledOf(b.stop) - filledOf(b.target);
}

export function planOco(b: BracketBook): OcoAction[] {
  const open = openQuantity(b);
  const actions: OcoAction[] = [];
  if (open < 0) actions.push({ kind: 'overshoot', excess: -open });
  const cover = Math.max(0, open);
  const freeze = b.freeze !== undefined && b.freeze > 0 ? b.freeze : Infinity;
  for (const leg of ['stop', 'target'] as const) {
    const orders = b[leg];
    if (!orders || orders.some((o) => o.status === 'pending')) continue;
    // The working orders, oldest first, cover the side up to the freeze each; any beyond is cancelled.
    let need = cover;
    for (const w of orders) {
      if (w.status !== 'working') continue;
      if (need === 0) {
        actions.push({ kind: 'cancel', leg, orderid: w.orderid });
        continue;
      }
      const want = Math.min(need, freeze - w.filled);
      if (want !== w.quantity - w.filled)
        actions.push({ kind: 'modify', leg, orderid: w.orderid, quantity: w.filled + want });
      need -= want;
    }
    if (need === 0) continue;
    const last = orders[orders.length - 1];
    if (last?.status === 'refused') {
      actions.push({ kind: 'unprotected', leg, quantity: need, reason: last.reason });
      continue;
    }
    for (; need > 0; need -= Math.min(need, freeze))
      actions.push({ kind: 'place', leg, quantity: Math.min(need, freeze) });
  }
  return actions;
}
