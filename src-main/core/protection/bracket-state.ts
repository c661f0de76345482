// A bracket as the keeper holds it, and how the book's rows read for its legs. Shared by the keeper
// (which plans and sends), the view (what the desk shows) and the store (what survives a restart).
import type { OrderSnapshot, StoredBracket, StoredLeg } from '../../contract/index.js';
import type { BracketEntry } from './bracket-types.js';
import type { Levels } from './levels.js';
import type { LegName, LegOrder } from './oco.js';

export interface Tracked {
  orderid?: string;
  /** A place, modify or cancel of it is on its way. */
  inFlight: boolean;
  /** The core asked for its cancellation: its end is the plan's, not a refusal. */
  cancelledByUs: boolean;
  /** A place sent with no answer: in doubt until the book shows the order (adopted). */
  unknown: boolean;
  /** Books read since the lost answer without the order in them. */
  unseenBooks?: number;
  /** A place the gateway did not act on: as if never sent. */
  dropped?: boolean;
  refusedReason?: string;
  /** A refused order the trader asked to place again: out of the plan. */
  retried?: boolean;
  /** The total quantity its last answered place or modify asked for. */
  sent?: number;
  /** The quantity its place asked for (a lost answer is adopted only by an order of it). */
  asked?: number;
}

export interface Flatten {
  t: Tracked;
  /** +1 when it closes the entry's side, −1 when it adds to it (after an overshoot). */
  sign: 1 | -1;
  quantity: number;
}

export interface Bracket {
  entry: BracketEntry;
  levels?: Levels;
  /** The stop's trigger as first placed (or as the trader last set it), and where it rests now. */
  initialStop?: number;
  stop?: number;
  best?: number;
  /** The last price seen of the symbol. */
  ltp?: number;
  removing?: boolean;
  /** Removed for a flatten: kept until the flatten is sent (or found needless). */
  flattenNext?: boolean;
  legs: Record<LegName, Tracked[]>;
  flatten: Flatten[];
}

export type Book = ReadonlyMap<string, OrderSnapshot>;

/** What the book says of one of the core's orders. */
export function legOrder(t: Tracked, book: Book): LegOrder {
  if (t.inFlight || t.unknown || (!t.orderid && !t.refusedReason)) return { status: 'pending' };
  if (!t.orderid) return { status: 'refused', filled: 0, reason: t.refusedReason ?? 'refused' };
  const row = book.get(t.orderid);
  if (!row) return { status: 'pending' };
  const { status, filledQuantity: filled } = row;
  if (status === 'open' || status === 'trigger pending')
    return { status: 'working', orderid: t.orderid, quantity: row.quantity, filled };
  if (status === 'complete' || (status === 'cancelled' && t.cancelledByUs))
    return { status: 'ended', filled };
  return { status: 'refused', filled, reason: row.rejectionReason || `the gateway ${status} it` };
}

/** The orders of a leg the plan counts (a dropped send never happened; a retried refusal is let go). */
export function liveTracked(b: Bracket, leg: LegName): Tracked[] {
  b.legs[leg] = b.legs[leg].filter((t) => !t.dropped);
  return b.legs[leg].filter((t) => !t.retried);
}

const filledOf = (orders: readonly LegOrder[]): number =>
  orders.reduce((n, o) => n + (o.status === 'pending' ? 0 : o.filled), 0);

/** Entry filled, less the legs' fills, less what flattening orders closed. */
export function openOf(b: Bracket, book: Book): number {
  const entryFilled = book.get(b.entry.orderid)?.filledQuantity ?? 0;
  const legs = (['stop', 'target'] as const).reduce(
    (n, leg) => n + filledOf(b.legs[leg].map((t) => legOrder(t, book))),
    0,
  );
  const flat = b.flatten.reduce((n, f) => n + f.sign * filledOf([legOrder(f.t, book)]), 0);
  return entryFilled - legs - flat;
}

const storedLeg = (t: Tracked): StoredLeg => ({
  ...(t.orderid !== undefined ? { orderid: t.orderid } : {}),
  cancelledByUs: t.cancelledByUs,
  // A send on its way when this is read may reach the gateway: after a restart it is in doubt.
  unknown: t.unknown || (t.inFlight && t.orderid === undefined),
  ...(t.refusedReason !== undefined ? { refusedReason: t.refusedReason } : {}),
  ...(t.retried ? { retried: true } : {}),
  ...(t.asked !== undefined ? { asked: t.asked } : {}),
});

const trackedOf = (s: StoredLeg): Tracked => ({
  ...(s.orderid !== undefined ? { orderid: s.orderid } : {}),
  inFlight: false,
  cancelledByUs: s.cancelledByUs,
  unknown: s.unknown,
  ...(s.refusedReason !== undefined ? { refusedReason: s.refusedReason } : {}),
  ...(s.retried ? { retried: true } : {}),
  ...(s.asked !== undefined ? { asked: s.asked } : {}),
});

export function storedOf(b: Bracket): StoredBracket {
  return {
    entry: b.entry,
    ...(b.levels ? { levels: b.levels } : {}),
    ...(b.initialStop !== undefined ? { initialStop: b.initialStop } : {}),
    ...(b.stop !== undefined ? { stop: b.stop } : {}),
    ...(b.best !== undefined ? { best: b.best } : {}),
    ...(b.removing ? { removing: true } : {}),
    legs: {
      stop: b.legs.stop.filter((t) => !t.dropped).map(storedLeg),
      target: b.legs.target.filter((t) => !t.dropped).map(storedLeg),
    },
    ...(b.flatten.length
      ? { flatten: b.flatten.map((f) => ({ leg: storedLeg(f.t), sign: f.sign, quantity: f.quantity })) }
      : {}),
  };
}

export function bracketOf(s: StoredBracket): Bracket {
  return {
    entry: s.entry,
    ...(s.levels ? { levels: s.levels } : {}),
    ...(s.initialStop !== undefined ? { initialStop: s.initialStop } : {}),
    ...(s.stop !== undefined ? { stop: s.stop } : {}),
    ...(s.best !== undefined ? { best: s.best } : {}),
    ...(s.removing ? { removing: true } : {}),
    legs: { stop: s.legs.stop.map(trackedOf), target: s.legs.target.map(trackedOf) },
    flatten: (s.flatten ?? []).map((f) => ({ t: trackedOf(f.leg), sign: f.sign, quantity: f.quantity })),
  };
}
