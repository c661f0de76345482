// How a strategy's orders go out: one leg at a time through the router's `orders.place` (journal
// first, the risk gate and the guard, the rate budget, unknown outcomes tracked), each leg marked
// `sending` and saved before its send, and read as sent, refused (the words kept) or unknown (never
// sent again by itself). The first leg that does not go stops the rest.
import type { IpcResult, StoredStrategy, StoredStrategyLeg } from '../../contract/index.js';
import { outcomeOf } from '../protection/send-outcome.js';

export type OrderChannel = 'orders.place' | 'orders.cancel' | 'orders.basket';
export type Invoke = (channel: OrderChannel, input: object) => Promise<IpcResult<unknown>>;

/** A send's answer as a leg reads it. */
export type LegOutcome =
  | { ok: true; orderid: string }
  | { ok: false; outcome: 'refused' | 'unknown'; message: string; journalId?: string };

/** The router's answer to a place; a send that did not act (rate budget, no key) is a refusal. */
export function legOutcome(r: IpcResult<unknown>): LegOutcome {
  if (r.ok) return { ok: true, orderid: (r.value as { orderid: string }).orderid };
  const outcome = outcomeOf(r.error) === 'unknown' ? 'unknown' : 'refused';
  return {
    ok: false,
    outcome,
    message: r.error.message,
    ...(r.error.journalId !== undefined ? { journalId: r.error.journalId } : {}),
  };
}

/** The strategy tag its orders carry (the journal and the book show it; the gateway takes 64). */
export const tagOf = (s: Pick<StoredStrategy, 'name' | 'tag'>): string =>
  s.tag ?? `OrderDesk ${s.name}`.slice(0, 64);

export interface LegSendPorts {
  invoke: Invoke;
  /** Saves the strategies; a send goes only once its `sending` mark is on disk. */
  save(): Promise<void>;
  /** False once another profile is active: the rest wait. */
  active(): boolean;
}

/** The order of one leg. */
export function placeInput(s: StoredStrategy, l: StoredStrategyLeg, confirmDuplicate: boolean): object {
  return {
    symbol: l.symbol,
    exchange: l.exchange,
    action: l.action,
    quantity: l.quantity,
    pricetype: l.pricetype,
    price: l.pricetype === 'LIMIT' ? l.price : 0,
    product: s.product,
    strategy: tagOf(s),
    ...(confirmDuplicate ? { confirmDuplicate: true } : {}),
  };
}

/** Marks a leg with its send's outcome. */
export function markLeg(l: StoredStrategyLeg, o: LegOutcome): void {
  delete l.journalId;
  if (o.ok) {
    l.state = 'sent';
    l.orderids.push(o.orderid);
    delete l.reason;
    return;
  }
  l.state = o.outcome;
  l.reason = o.message;
  if (o.journalId !== undefined) l.journalId = o.journalId;
}

/**
 * Sends the legs at `indices` in turn; stops at the first that does not go. The strategy ends
 * `open` when every leg went, else `partial`.
 */
export async function sendLegs(
  p: LegSendPorts,
  s: StoredStrategy,
  indices: readonly number[],
  confirmDuplicate: boolean,
): Promise<void> {
  s.state = 'sending';
  for (const i of indices) {
    const l = s.legs[i]!;
    if (!p.active()) break;
    l.state = 'sending';
    try {
      await p.save();
    } catch (err) {
      l.state = 'waiting';
      l.reason = `not sent: the strategy could not be saved (${String(err)})`;
      break;
    }
    const o = legOutcome(await p.invoke('orders.place', placeInput(s, l, confirmDuplicate)));
    markLeg(l, o);
    if (!o.ok) break;
  }
  s.state = s.legs.every((l) => l.state === 'sent' || l.state === 'closed') ? 'open' : 'partial';
}
