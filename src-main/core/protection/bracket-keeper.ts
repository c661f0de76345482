// Over 300 lines: the plan's sends and the trader's actions on a bracket share one state and book.
// Keeps each bracket's stop and target at the gateway in step with its entry: every book it is
// shown becomes the OCO plan (oco.ts) and the plan's orders are sent through the ports given. An
// order is marked in flight before it is sent and stays so until the book shows its outcome, so a
// book read while an answer travels plans nothing for that leg; a lost answer is never resent.
import type { BracketView, OrderSnapshot, StoredBracket } from '../../contract/index.js';
import { exactOf, isMultipleOf } from '../../shared/decimal.js';
import {
  bracketOf,
  legOrder,
  liveTracked,
  openOf,
  storedOf,
  type Book,
  type Bracket,
  type Tracked,
} from './bracket-state.js';
import type {
  BracketDone,
  BracketEntry,
  BracketHazard,
  ProtectiveOrder,
  ProtectivePorts,
  SendResult,
} from './bracket-types.js';
import { bracketView } from './bracket-view.js';
import { protectiveLevels, type EntryAction, type Levels } from './levels.js';
import { planOco, type LegName, type OcoAction } from './oco.js';
import { nextStop } from './trail.js';

export type {
  BracketDone,
  BracketEntry,
  BracketHazard,
  ProtectiveOrder,
  ProtectivePorts,
  SendResult,
} from './bracket-types.js';

interface Working {
  t: Tracked;
  orderid: string;
  /** The order's total quantity, as the book has it. */
  quantity: number;
  stale: boolean;
}

const opposite = (a: EntryAction): EntryAction => (a === 'BUY' ? 'SELL' : 'BUY');
const ENDED = new Set(['complete', 'cancelled', 'rejected']);

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
  views(): BracketView[];
  /** The symbols of brackets with something open or waiting to fill: their prices trail the stops. */
  symbols(): { symbol: string; exchange: string }[];
  /** Moves the stop and/or target of a bracket whose legs rest. */
  setLevels(entry: string, to: { stop?: number; target?: number }): Promise<BracketDone>;
  /** Cancels the working legs and lets the bracket go once the book shows them ended. */
  remove(entry: string, o?: { flattenNext?: boolean }): Promise<BracketDone>;
  /** Lets the refused orders of a bracket go, so the next book places its legs again. */
  retry(entry: string): BracketDone;
  /**
   * After remove() and a fresh book: the closing order of what is open (the excess after an
   * overshoot), sent once; refused while a leg or an earlier flatten is still working or unknown.
   */
  flatten(
    entry: string,
  ): Promise<
    (BracketDone & { ok: false }) | { ok: true; orderid: string; action: EntryAction; quantity: number }
  >;
  snapshot(): StoredBracket[];
  restore(brackets: readonly StoredBracket[]): void;
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
  const hazardKey = (h: BracketHazard) => `${h.entry}|${h.kind}|${h.kind === 'unprotected' ? h.leg : ''}`;
  /** Each hazard is told once: the plan finds it again on every book while it lasts. */
  const onHazard = (h: BracketHazard): void => {
    if (told.has(hazardKey(h))) return;
    told.add(hazardKey(h));
    tell(h);
  };
  const brackets = new Map<string, Bracket>();
  let book: Book = new Map<string, OrderSnapshot>();
  /** A send of the current look came back "not sent". */
  let notSent = false;

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

  /** Saves first (a failed save sends nothing), then sends. */
  async function guarded(send: () => Promise<SendResult>): Promise<SendResult> {
    try {
      await ports.beforeSend?.();
    } catch (err) {
      return { ok: false, outcome: 'not_sent', message: `the brackets could not be saved: ${String(err)}` };
    }
    return send();
  }

  /**
   * A place's lost answer keeps its leg in doubt (never placed again) until the book shows the order
   * (adopt()); a modify's or cancel's is settled by the book itself: either shows in the order's row.
   */
  async function settle(t: Tracked, send: () => Promise<SendResult>, quantity?: number): Promise<SendResult> {
    const r = await guarded(send);
    t.inFlight = false;
    if (r.ok && quantity !== undefined) t.sent = quantity;
    else if (!r.ok && r.outcome === 'unknown') delete t.sent;
    if (!r.ok && r.outcome === 'not_sent') notSent = true;
    if (r.ok) t.orderid ??= r.orderid;
    else if (!t.orderid) {
      if (r.outcome === 'unknown') t.unknown = true;
      else if (r.outcome === 'not_sent') t.dropped = true;
      else t.refusedReason = r.message;
    }
    return r;
  }

  function knownOrderids(): Set<string | undefined> {
    return new Set(
      [...brackets.values()].flatMap((x) =>
        [...x.legs.stop, ...x.legs.target, ...x.flatten.map((f) => f.t)].map((y) => y.orderid),
      ),
    );
  }

  /** Orders of the book that a place with a lost answer may be: same shape, no bracket's yet. */
  function adopt(want: ProtectiveOrder, t: Tracked, entry: string): void {
    const known = knownOrderids();
    const row = [...book.values()].find(
      (r) =>
        !known.has(r.orderid) &&
        r.orderid !== entry &&
        r.symbol === want.symbol &&
        r.exchange === want.exchange &&
        r.action === want.action &&
        r.pricetype === want.pricetype &&
        (want.pricetype === 'SL-M'
          ? r.triggerPrice === want.trigger_price
          : want.pricetype === 'LIMIT'
            ? r.price === want.price
            : true) &&
        // The quantity the lost place asked for: another bracket's leg at the same level is not it.
        r.quantity === (t.asked ?? want.quantity),
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

  function place(b: Bracket, leg: LegName, quantity: number): Promise<void> {
    const entry = b.entry.orderid;
    const t: Tracked = { inFlight: true, cancelledByUs: false, unknown: false, asked: quantity };
    b.legs[leg].push(t);
    return settle(t, () => ports.place(protective(b, leg, quantity)), quantity).then((r) => {
      // Told at once: the book may not change again for a while.
      if (!r.ok && r.outcome === 'refused')
        onHazard({ kind: 'unprotected', entry, leg, quantity, reason: r.message });
    });
  }

  function cancel(t: Tracked, orderid: string): Promise<void> {
    t.inFlight = true;
    t.cancelledByUs = true;
    return settle(t, () => ports.cancel(orderid)).then(() => undefined);
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
      case 'place':
        return place(b, a.leg, a.quantity);
      case 'modify':
      case 'cancel': {
        const t = b.legs[a.leg].find((x) => x.orderid === a.orderid);
        if (!t) return undefined;
        if (a.kind === 'cancel') return cancel(t, a.orderid);
        t.inFlight = true;
        const o = { ...protective(b, a.leg, a.quantity), orderid: a.orderid };
        return settle(t, () => ports.modify(o), a.quantity).then(() => undefined);
      }
    }
  }

  /** The levels, worked out once from the entry's first average fill price. */
  function ensureLevels(b: Bracket, row: OrderSnapshot): boolean {
    if (b.levels) return b.levels.stop !== undefined || b.levels.target !== undefined;
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

  /** Where the gateway has a resting leg is where it is (a modify whose answer was lost, or refused). */
  function syncFromBook(b: Bracket): void {
    for (const leg of ['stop', 'target'] as const) {
      const t = b.legs[leg].find((x) => !x.inFlight && x.orderid && legOrder(x, book).status === 'working');
      const row = t?.orderid ? book.get(t.orderid) : undefined;
      if (!row) continue;
      if (leg === 'stop' && row.triggerPrice > 0) b.stop = row.triggerPrice;
      if (leg === 'target' && row.price > 0 && b.levels) b.levels.target = row.price;
    }
  }

  const busy = (t: Tracked) => {
    const s = legOrder(t, book).status;
    return s === 'pending' || s === 'working';
  };

  /** Nothing of it can still fill: its entry ended (or it was removed) and no order of it works. */
  function finished(b: Bracket): boolean {
    const row = book.get(b.entry.orderid);
    if (!row) return false;
    const all = [...b.legs.stop, ...b.legs.target, ...b.flatten.map((f) => f.t)].filter((t) => !t.dropped);
    if (all.some(busy)) return false;
    if (b.removing) return !b.flattenNext;
    return ENDED.has(row.status) && openOf(b, book) === 0;
  }

  function look(b: Bracket, sent: Promise<void>[]): void {
    const row = book.get(b.entry.orderid);
    if (!row) return;
    for (const leg of ['stop', 'target'] as const)
      for (const t of b.legs[leg])
        if (t.unknown && !t.inFlight && b.levels) adopt(protective(b, leg, 0), t, b.entry.orderid);
    for (const f of b.flatten)
      if (f.t.unknown && !f.t.inFlight) adopt(flattenOrder(b, f.sign, f.quantity), f.t, b.entry.orderid);
    if (b.removing) {
      // Removed: only cancels, of whatever still works.
      for (const leg of ['stop', 'target'] as const)
        for (const t of b.legs[leg]) {
          const o = legOrder(t, book);
          if (o.status === 'working') sent.push(cancel(t, o.orderid));
        }
      return;
    }
    if (row.filledQuantity === 0 || !ensureLevels(b, row)) return;
    syncFromBook(b);
    const legs = (leg: LegName) => liveTracked(b, leg).map((t) => legOrder(t, book));
    const plan = planOco({
      entryFilled: row.filledQuantity,
      ...(b.entry.freeze !== undefined ? { freeze: b.entry.freeze } : {}),
      ...(b.levels?.stop !== undefined ? { stop: legs('stop') } : {}),
      ...(b.levels?.target !== undefined ? { target: legs('target') } : {}),
    });
    for (const a of plan) {
      const p = run(b, a);
      if (p) sent.push(p);
    }
  }

  /** The leg's orders resting at the gateway, with their total quantity. */
  function workingOf(b: Bracket, leg: LegName): Working[] {
    return b.legs[leg].flatMap((t) => {
      const o = legOrder(t, book);
      if (o.status !== 'working' || t.inFlight) return [];
      // The book was read before the last change of it was answered: its quantity is not the order's.
      const stale = t.sent !== undefined && t.sent !== o.quantity;
      return [{ t, orderid: o.orderid, quantity: o.quantity, stale }];
    });
  }

  /** A working order moved to the leg's level now, its quantity kept. */
  function modifyTo(b: Bracket, leg: LegName, w: Working) {
    w.t.inFlight = true;
    const o = { ...protective(b, leg, w.quantity), orderid: w.orderid };
    return settle(w.t, () => ports.modify(o), w.quantity);
  }

  function flattenOrder(b: Bracket, sign: 1 | -1, quantity: number): ProtectiveOrder {
    return {
      symbol: b.entry.symbol,
      exchange: b.entry.exchange,
      product: b.entry.product,
      action: sign === 1 ? opposite(b.entry.action) : b.entry.action,
      quantity,
      pricetype: 'MARKET',
      price: 0,
      trigger_price: 0,
    };
  }

  function beyond(side: 1 | -1, a: number, b: number): boolean {
    return (a - b) * side > 0;
  }

  const missing = (entry: string): BracketDone & { ok: false } => ({
    ok: false,
    message: `order ${entry} has no protection attached`,
  });

  return {
    attach(entry) {
      if (brackets.has(entry.orderid)) return;
      brackets.set(entry.orderid, { entry, legs: { stop: [], target: [] }, flatten: [] });
    },

    async onBook(orders) {
      book = new Map(orders.map((o) => [o.orderid, o]));
      notSent = false;
      const sent: Promise<void>[] = [];
      for (const b of brackets.values()) look(b, sent);
      await Promise.all(sent);
      for (const [id, b] of brackets) if (finished(b)) brackets.delete(id);
      return notSent;
    },

    async onPrice(symbol, exchange, ltp) {
      const sent: Promise<void>[] = [];
      for (const b of brackets.values()) {
        const { entry } = b;
        if (entry.symbol !== symbol || entry.exchange !== exchange) continue;
        b.ltp = ltp;
        if (b.stop === undefined || b.removing) continue;
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
        const working = workingOf(b, 'stop');
        // A stop changed since the last book waits for the next one: its quantity there is old.
        if (!working.length || working.some((w) => w.stale) || b.legs.stop.some((t) => t.inFlight)) continue;
        const was = b.stop;
        b.stop = to;
        for (const w of working)
          sent.push(
            modifyTo(b, 'stop', w).then((r) => {
              // A refused move leaves the stop where the gateway still has it.
              if (!r.ok && r.outcome === 'refused') b.stop = was;
            }),
          );
      }
      await Promise.all(sent);
    },

    levelsOf(entryOrderid) {
      const b = brackets.get(entryOrderid);
      return b?.levels ? { ...b.levels, ...(b.stop !== undefined ? { stop: b.stop } : {}) } : undefined;
    },

    views: () => [...brackets.values()].map((b) => bracketView(b, book)),

    symbols() {
      const seen = new Map<string, { symbol: string; exchange: string }>();
      for (const b of brackets.values())
        if (!b.removing)
          seen.set(`${b.entry.exchange}:${b.entry.symbol}`, {
            symbol: b.entry.symbol,
            exchange: b.entry.exchange,
          });
      return [...seen.values()];
    },

    async setLevels(entry, to) {
      const b = brackets.get(entry);
      if (!b || b.removing) return missing(entry);
      if (!b.levels || (b.levels.stop === undefined && b.levels.target === undefined))
        return { ok: false, message: 'the levels are set at the entry’s first fill: nothing rests yet' };
      const sign = b.entry.action === 'BUY' ? 1 : -1;
      const ref = b.ltp ?? book.get(entry)?.averagePrice ?? 0;
      const tick = exactOf(b.entry.tick);
      for (const leg of ['stop', 'target'] as const) {
        const at = to[leg];
        if (at === undefined) continue;
        if (b.levels[leg] === undefined) return { ok: false, message: `this bracket has no ${leg}` };
        if (!isMultipleOf(exactOf(at), tick))
          return { ok: false, message: `the ${leg} ${at} is not a multiple of the tick ${b.entry.tick}` };
        const side = leg === 'stop' ? -sign : sign;
        if (ref > 0 && !beyond(side as 1 | -1, at, ref))
          return {
            ok: false,
            message: `a ${b.entry.action}'s ${leg} must be ${side === 1 ? 'above' : 'below'} the last price ${ref}`,
          };
        if (b.legs[leg].some((t) => !t.dropped && !t.retried && legOrder(t, book).status === 'pending'))
          return { ok: false, message: `the ${leg} is on its way to the gateway: try again once it rests` };
        if (workingOf(b, leg).some((w) => w.stale))
          return { ok: false, message: `the ${leg} changed a moment ago: try again once the book shows it` };
      }
      const sends: Promise<{ leg: LegName; r: SendResult }>[] = [];
      const was = { stop: b.stop, target: b.levels.target, initialStop: b.initialStop, best: b.best };
      if (to.stop !== undefined) {
        b.stop = b.initialStop = b.levels.stop = to.stop;
        delete b.best;
      }
      if (to.target !== undefined) b.levels.target = to.target;
      for (const leg of ['stop', 'target'] as const)
        if (to[leg] !== undefined)
          for (const w of workingOf(b, leg)) sends.push(modifyTo(b, leg, w).then((r) => ({ leg, r })));
      const results = await Promise.all(sends);
      const bad = results.find((x) => !x.r.ok);
      if (!bad || bad.r.ok) return { ok: true };
      if (bad.r.outcome === 'unknown')
        return {
          ok: true,
          note: `the ${bad.leg}'s move was sent without an answer: the book will show where it rests`,
        };
      if (bad.leg === 'stop') {
        b.stop = was.stop;
        b.initialStop = was.initialStop;
        if (was.best !== undefined) b.best = was.best;
      } else if (b.levels) b.levels.target = was.target;
      return { ok: false, message: `the ${bad.leg} was not moved: ${bad.r.message}` };
    },

    async remove(entry, o) {
      const b = brackets.get(entry);
      if (!b) return missing(entry);
      b.removing = true;
      if (o?.flattenNext) b.flattenNext = true;
      const sent: Promise<void>[] = [];
      for (const leg of ['stop', 'target'] as const)
        for (const t of b.legs[leg]) {
          const o = legOrder(t, book);
          if (o.status === 'working' && !t.inFlight) sent.push(cancel(t, o.orderid));
        }
      await Promise.all(sent);
      return { ok: true };
    },

    retry(entry) {
      const b = brackets.get(entry);
      if (!b || b.removing) return missing(entry);
      let any = false;
      for (const leg of ['stop', 'target'] as const)
        for (const t of b.legs[leg]) {
          const o = legOrder(t, book);
          if (o.status === 'refused' && o.filled === 0 && !t.retried) {
            t.retried = true;
            any = true;
            told.delete(`${entry}|unprotected|${leg}`);
          }
        }
      return any ? { ok: true } : { ok: false, message: 'no leg of this bracket was refused' };
    },

    async flatten(entry) {
      const b = brackets.get(entry);
      if (!b) return missing(entry);
      const legs = [...b.legs.stop, ...b.legs.target].filter((t) => !t.dropped);
      if (legs.some(busy))
        return {
          ok: false,
          message: 'a leg still works at the gateway (its cancel is not in the book yet): nothing sent',
        };
      if (b.flatten.some((f) => !f.t.dropped && busy(f.t)))
        return { ok: false, message: 'a flattening order of this bracket is already working: nothing sent' };
      const open = openOf(b, book);
      delete b.flattenNext;
      if (open === 0) return { ok: false, message: 'nothing is open: the book shows the bracket flat' };
      const sign = open > 0 ? 1 : -1;
      const o = flattenOrder(b, sign, Math.abs(open));
      const t: Tracked = { inFlight: true, cancelledByUs: false, unknown: false };
      b.flatten.push({ t, sign, quantity: o.quantity });
      const r = await settle(t, () => ports.place(o));
      if (r.ok) return { ok: true, orderid: r.orderid, action: o.action, quantity: o.quantity };
      if (r.outcome === 'unknown')
        return {
          ok: false,
          message: `the flattening order was sent without an answer: the book will show it (${r.message})`,
        };
      return { ok: false, message: `the flattening order was not sent: ${r.message}` };
    },

    snapshot: () => [...brackets.values()].map(storedOf),

    restore(list) {
      for (const s of list) if (!brackets.has(s.entry.orderid)) brackets.set(s.entry.orderid, bracketOf(s));
    },
  };
}
