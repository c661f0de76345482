// Keeps each bracket's stop and target at the gateway in step with its entry: every book it is
// shown becomes the OCO plan (oco.ts) and the plan's orders are sent through the ports given. An
// order is marked in flight before it is sent and stays so until the book shows its outcome, so a
// book read while an answer travels plans nothing for that leg; a lost answer is never resent.
import type { OrderSnapshot, ProtectionSpec } from '../../contract/index.js';
import { protectiveLevels, type EntryAction, type Levels } from './levels.js';
import { planOco, type LegName, type LegOrder, type OcoAction } from './oco.js';
import { nextStop } from './trail.js';

export interface BracketEntry {
  /** The entry order's id at the gateway. */
  orderid: string;
  symbol: string;
  exchange: string;
  product: string;
  action: EntryAction;
  tick: number;
  spec: ProtectionSpec;
}

/** One protective order to send: a stop rests as SL-M at its trigger, a target as LIMIT. */
export interface ProtectiveOrder {
  symbol: string;
  exchange: string;
  product: string;
  action: EntryAction;
  quantity: number;
  pricetype: 'SL-M' | 'LIMIT';
  price: number;
  trigger_price: number;
}

export type SendResult =
  | { ok: true; orderid: string }
  | { ok: false; outcome: 'refused'; message: string }
  /** Sent, no answer: the gateway may have acted. */
  | { ok: false; outcome: 'unknown'; message: string }
  /** It did not act (not sent, rate-limited, no key): the next book plans it again. */
  | { ok: false; outcome: 'not_sent'; message: string };

export interface ProtectivePorts {
  place(o: ProtectiveOrder): Promise<SendResult>;
  modify(o: ProtectiveOrder & { orderid: string }): Promise<SendResult>;
  cancel(orderid: string): Promise<SendResult>;
}

export type BracketHazard =
  | { kind: 'overshoot'; entry: string; excess: number }
  | { kind: 'unprotected'; entry: string; leg: LegName; quantity: number; reason: string }
  | { kind: 'levels'; entry: string; message: string };

interface Tracked {
  orderid?: string;
  /** A place, modify or cancel of it is on its way. */
  inFlight: boolean;
  /** The core asked for its cancellation: its end is the plan's, not a refusal. */
  cancelledByUs: boolean;
  /** A place sent with no answer: in doubt until the book shows the order (adopt()). */
  unknown: boolean;
  /** Books read since the lost answer without the order in them. */
  unseenBooks?: number;
  /** A place the gateway did not act on: as if never sent. */
  dropped?: boolean;
  refusedReason?: string;
}

interface Bracket {
  entry: BracketEntry;
  levels?: Levels;
  /** The stop's trigger as first placed, and where it rests now. */
  initialStop?: number;
  stop?: number;
  best?: number;
  legs: Record<LegName, Tracked[]>;
}

const opposite = (a: EntryAction): EntryAction => (a === 'BUY' ? 'SELL' : 'BUY');
const filledOf = (r: OrderSnapshot): number => r.filledQuantity;

export interface BracketKeeper {
  attach(entry: BracketEntry): void;
  /**
   * Plans and sends against this book; resolves when what it sent has been answered, true when a
   * send came back "not sent" (the same book, looked at again later, plans it again).
   */
  onBook(orders: readonly OrderSnapshot[]): Promise<boolean>;
  /** A price of a bracketed symbol: trails its stop. Resolves when any modify has been answered. */
  onPrice(symbol: string, exchange: string, ltp: number): Promise<void>;
  /** The levels a bracket's legs rest at (undefined before its first fill). */
  levelsOf(entryOrderid: string): Levels | undefined;
}

/**
 * Books read after a place's lost answer without the order in them before it counts as not placed
 * and is planned again (a gateway shows an accepted order in its next book; the paper one at once).
 */
export const UNKNOWN_PATIENCE_BOOKS = 5;

export function createBracketKeeper(
  ports: ProtectivePorts,
  tell: (h: BracketHazard) => void,
  patienceBooks = UNKNOWN_PATIENCE_BOOKS,
): BracketKeeper {
  const told = new Set<string>();
  /** Each hazard is told once: the plan finds it again on every book while it lasts. */
  const onHazard = (h: BracketHazard): void => {
    const key = `${h.entry}|${h.kind}|${h.kind === 'unprotected' ? h.leg : ''}`;
    if (told.has(key)) return;
    told.add(key);
    tell(h);
  };
  const brackets = new Map<string, Bracket>();
  let book = new Map<string, OrderSnapshot>();
  /** A send of the current look came back "not sent". */
  let notSent = false;

  function legOrder(t: Tracked): LegOrder {
    if (t.inFlight || t.unknown || (!t.orderid && !t.refusedReason)) return { status: 'pending' };
    if (!t.orderid) return { status: 'refused', filled: 0, reason: t.refusedReason ?? 'refused' };
    const row = book.get(t.orderid);
    if (!row) return { status: 'pending' };
    const status = row.status;
    const filled = filledOf(row);
    if (status === 'open' || status === 'trigger pending')
      return { status: 'working', orderid: t.orderid, quantity: row.quantity, filled };
    if (status === 'complete' || (status === 'cancelled' && t.cancelledByUs))
      return { status: 'ended', filled };
    return { status: 'refused', filled, reason: row.rejectionReason || `the gateway ${status} it` };
  }

  function legOrders(b: Bracket, leg: LegName): LegOrder[] {
    b.legs[leg] = b.legs[leg].filter((t) => !t.dropped);
    return b.legs[leg].map(legOrder);
  }

  function protective(b: Bracket, leg: LegName, quantity: number): ProtectiveOrder {
    const { entry } = b;
    const base = {
      symbol: entry.symbol,
      exchange: entry.exchange,
      product: entry.product,
      action: opposite(entry.action),
      quantity,
    };
    return leg === 'stop'
      ? { ...base, pricetype: 'SL-M', price: 0, trigger_price: b.stop! }
      : { ...base, pricetype: 'LIMIT', price: b.levels!.target!, trigger_price: 0 };
  }

  /**
   * A place's lost answer keeps its leg in doubt (never placed again) until the book shows the order
   * (adopt()); a modify's or cancel's is settled by the book itself: either shows in the order's row.
   */
  async function settle(t: Tracked, send: Promise<SendResult>): Promise<SendResult> {
    const r = await send;
    t.inFlight = false;
    if (!r.ok && r.outcome === 'not_sent') notSent = true;
    if (r.ok) t.orderid ??= r.orderid;
    else if (!t.orderid) {
      if (r.outcome === 'unknown') t.unknown = true;
      else if (r.outcome === 'not_sent') t.dropped = true;
      else t.refusedReason = r.message;
    }
    return r;
  }

  /** Orders of the book that a place with a lost answer may be: same shape, no bracket's yet. */
  function adopt(b: Bracket, leg: LegName, t: Tracked): void {
    const known = new Set(
      [...brackets.values()].flatMap((x) => [...x.legs.stop, ...x.legs.target].map((y) => y.orderid)),
    );
    const want = protective(b, leg, 0);
    const row = [...book.values()].find(
      (r) =>
        !known.has(r.orderid) &&
        r.orderid !== b.entry.orderid &&
        r.symbol === want.symbol &&
        r.exchange === want.exchange &&
        r.action === want.action &&
        r.pricetype === want.pricetype &&
        (leg === 'stop' ? r.triggerPrice === want.trigger_price : r.price === want.price),
    );
    if (!row) {
      t.unseenBooks = (t.unseenBooks ?? 0) + 1;
      // Never reached the gateway's book: as if not sent (the next book plans it again).
      if (t.unseenBooks >= patienceBooks) t.dropped = true;
      return;
    }
    t.orderid = row.orderid;
    t.unknown = false;
  }

  function run(b: Bracket, a: OcoAction): Promise<void> | undefined {
    const entry = b.entry.orderid;
    switch (a.kind) {
      case 'overshoot':
        onHazard({ kind: 'overshoot', entry, excess: a.excess });
        return undefined;
      case 'unprotected':
        onHazard({ kind: 'unprotected', entry, leg: a.leg, quantity: a.quantity, reason: a.reason });
        return undefined;
      case 'place': {
        const t: Tracked = { inFlight: true, cancelledByUs: false, unknown: false };
        b.legs[a.leg].push(t);
        return settle(t, ports.place(protective(b, a.leg, a.quantity))).then((r) => {
          // Told at once: the book may not change again for a while.
          if (!r.ok && r.outcome === 'refused')
            onHazard({ kind: 'unprotected', entry, leg: a.leg, quantity: a.quantity, reason: r.message });
        });
      }
      case 'modify':
      case 'cancel': {
        const t = b.legs[a.leg].find((x) => x.orderid === a.orderid);
        if (!t) return undefined;
        t.inFlight = true;
        if (a.kind === 'cancel') {
          t.cancelledByUs = true;
          return settle(t, ports.cancel(a.orderid)).then(() => undefined);
        }
        return settle(t, ports.modify({ ...protective(b, a.leg, a.quantity), orderid: a.orderid })).then(
          () => undefined,
        );
      }
    }
  }

  /** The levels, worked out once from the entry's first average fill price. */
  function ensureLevels(b: Bracket, row: OrderSnapshot): boolean {
    if (b.levels) return true;
    const price = row.averagePrice;
    if (!(price > 0)) return false;
    const r = protectiveLevels({ action: b.entry.action, price, tick: b.entry.tick }, b.entry.spec);
    if (!r.ok) {
      onHazard({ kind: 'levels', entry: b.entry.orderid, message: r.message });
      b.levels = {};
      return false;
    }
    b.levels = r.levels;
    b.initialStop = b.stop = r.levels.stop;
    return true;
  }

  return {
    attach(entry) {
      if (brackets.has(entry.orderid)) return;
      brackets.set(entry.orderid, {
        entry,
        legs: { stop: [], target: [] },
      });
    },

    async onBook(orders) {
      book = new Map(orders.map((o) => [o.orderid, o]));
      notSent = false;
      const sent: Promise<void>[] = [];
      for (const b of brackets.values()) {
        const row = book.get(b.entry.orderid);
        if (!row || filledOf(row) === 0 || !ensureLevels(b, row)) continue;
        for (const leg of ['stop', 'target'] as const)
          for (const t of b.legs[leg]) if (t.unknown && !t.inFlight) adopt(b, leg, t);
        // Where the gateway has the stop is where it is (a modify whose answer was lost, or refused).
        const resting = b.legs.stop.find((t) => !t.inFlight && t.orderid && legOrder(t).status === 'working');
        const trigger = resting?.orderid ? book.get(resting.orderid)?.triggerPrice : undefined;
        if (trigger !== undefined && trigger > 0) b.stop = trigger;
        const plan = planOco({
          entryFilled: filledOf(row),
          ...(b.levels?.stop !== undefined ? { stop: legOrders(b, 'stop') } : {}),
          ...(b.levels?.target !== undefined ? { target: legOrders(b, 'target') } : {}),
        });
        for (const a of plan) {
          const p = run(b, a);
          if (p) sent.push(p);
        }
      }
      await Promise.all(sent);
      return notSent;
    },

    async onPrice(symbol, exchange, ltp) {
      const sent: Promise<void>[] = [];
      for (const b of brackets.values()) {
        const { entry } = b;
        if (entry.symbol !== symbol || entry.exchange !== exchange || b.stop === undefined) continue;
        const fill = book.get(entry.orderid)?.averagePrice ?? 0;
        if (!(fill > 0)) continue;
        b.best =
          b.best === undefined ? ltp : entry.action === 'BUY' ? Math.max(b.best, ltp) : Math.min(b.best, ltp);
        const to = nextStop({
          fill: { action: entry.action, price: fill, tick: entry.tick },
          spec: entry.spec,
          initialStop: b.initialStop!,
          currentStop: b.stop,
          best: b.best,
          ltp,
        });
        if (to === undefined) continue;
        const leg = b.legs.stop.map((t) => ({ t, o: legOrder(t) })).find((x) => x.o.status === 'working');
        if (!leg || leg.o.status !== 'working' || b.legs.stop.some((t) => t.inFlight)) continue;
        const was = b.stop;
        b.stop = to;
        leg.t.inFlight = true;
        const quantity = leg.o.quantity;
        sent.push(
          settle(leg.t, ports.modify({ ...protective(b, 'stop', quantity), orderid: leg.o.orderid })).then(
            (r) => {
              // A refused move leaves the stop where the gateway still has it.
              if (!r.ok && r.outcome === 'refused') b.stop = was;
            },
          ),
        );
      }
      await Promise.all(sent);
    },

    levelsOf(entryOrderid) {
      const b = brackets.get(entryOrderid);
      return b?.levels ? { ...b.levels, ...(b.stop !== undefined ? { stop: b.stop } : {}) } : undefined;
    },
  };
}
