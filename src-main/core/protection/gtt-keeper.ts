// Over 300 lines: a GTT bracket's whole life (place, grow, adopt, trail, end) shares one state.
// Brackets that rest at the gateway as one GTT OCO (CNC/NRML, a long entry): the stop and target
// are the GTT's two triggers, so the protection holds with OrderDesk closed. The core places the GTT
// for the entry's filled quantity, grows it as the entry fills, trails its stop while running, and
// reads its end from the GTT book: triggered (one leg fired: the gateway closed the position) or
// ended by someone else (told as unprotected). A place whose answer was lost is adopted from the GTT
// book by its shape, never sent twice.
import type {
  BracketView,
  GttRecord,
  LegView,
  OrderSnapshot,
  StoredGttBracket,
} from '../../contract/index.js';
import { exactOf, isMultipleOf } from '../../shared/decimal.js';
import type { BracketDone, BracketEntry, BracketHazard, SendResult } from './bracket-types.js';
import { UNKNOWN_PATIENCE_BOOKS } from './bracket-keeper.js';
import { protectiveLevels } from './levels.js';
import { breakEvenLevel, nextStop } from './trail.js';

/** One GTT OCO closing a long: the stoploss trigger below the target trigger, MARKET legs. */
export interface GttOrder {
  symbol: string;
  exchange: string;
  product: string;
  quantity: number;
  stop: number;
  target: number;
}

export interface GttPorts {
  place(o: GttOrder): Promise<SendResult>;
  /** A MARKET order closing the position (a flatten). */
  close(o: { symbol: string; exchange: string; product: string; quantity: number }): Promise<SendResult>;
  modify(o: GttOrder & { trigger_id: string }): Promise<SendResult>;
  cancel(triggerId: string): Promise<SendResult>;
  beforeSend?(): Promise<void>;
}

interface GttState {
  id?: string;
  inFlight: boolean;
  unknown: boolean;
  unseenBooks?: number;
  cancelledByUs: boolean;
  refusedReason?: string;
  /** The quantity its last answered place or modify asked for. */
  sent?: number;
}

interface GttBracket {
  entry: BracketEntry;
  stop?: number;
  target?: number;
  initialStop?: number;
  best?: number;
  ltp?: number;
  removing?: boolean;
  /** A flatten was sent: never a second one for this bracket. */
  flattened?: boolean;
  /** Removed for a flatten: kept until the flatten is sent (or found needless). */
  flattenNext?: boolean;
  gtt: GttState;
}

/** Why a protection cannot rest as a GTT OCO, or undefined when it can. */
export function gttUnfit(entry: BracketEntry): string | undefined {
  if (entry.product !== 'CNC' && entry.product !== 'NRML')
    return 'a GTT protection needs a CNC or NRML entry (a GTT outlives the day; MIS does not)';
  if (entry.action !== 'BUY')
    return 'a GTT OCO closes a long (its stoploss below its target): protect a SELL entry core-held';
  if (!entry.spec.stop || !entry.spec.target) return 'a GTT OCO needs both a stop and a target';
  return undefined;
}

export interface GttKeeper {
  has(entry: string): boolean;
  attach(entry: BracketEntry): void;
  /**
   * Acts on the order book and the GTT book read together; resolves once its sends are answered,
   * true when it sent something (the GTT book is worth reading again).
   */
  onBooks(orders: readonly OrderSnapshot[], gtts: readonly GttRecord[]): Promise<boolean>;
  onPrice(symbol: string, exchange: string, ltp: number): Promise<void>;
  /** There is a bracket whose GTT the GTT book must be read for. */
  needsGttBook(): boolean;
  views(): BracketView[];
  symbols(): { symbol: string; exchange: string }[];
  setLevels(entry: string, to: { stop?: number; target?: number }): Promise<BracketDone>;
  remove(entry: string, o?: { flattenNext?: boolean }): Promise<BracketDone>;
  /** Lets a refused GTT go, so the next books place it again. */
  retry(entry: string): BracketDone;
  /**
   * After remove() and fresh books: sells what the entry filled at MARKET unless the GTT fired,
   * once; refused while the GTT is still active or in doubt.
   */
  flatten(
    entry: string,
  ): Promise<(BracketDone & { ok: false }) | { ok: true; orderid: string; action: 'SELL'; quantity: number }>;
  snapshot(): StoredGttBracket[];
  restore(list: readonly StoredGttBracket[]): void;
}

export function createGttKeeper(
  ports: GttPorts,
  tell: (h: BracketHazard) => void,
  patienceBooks = UNKNOWN_PATIENCE_BOOKS,
): GttKeeper {
  const brackets = new Map<string, GttBracket>();
  const told = new Set<string>();
  let orders = new Map<string, OrderSnapshot>();
  let gtts = new Map<string, GttRecord>();
  const onHazard = (h: BracketHazard) => {
    const key = `${h.entry}|${h.kind}`;
    if (told.has(key)) return;
    told.add(key);
    tell(h);
  };

  const order = (b: GttBracket, quantity: number): GttOrder => ({
    symbol: b.entry.symbol,
    exchange: b.entry.exchange,
    product: b.entry.product,
    quantity,
    stop: b.stop!,
    target: b.target!,
  });

  async function send(b: GttBracket, go: () => Promise<SendResult>, quantity?: number): Promise<SendResult> {
    const g = b.gtt;
    g.inFlight = true;
    let r: SendResult;
    try {
      await ports.beforeSend?.();
      r = await go();
    } catch (err) {
      r = { ok: false, outcome: 'not_sent', message: `the brackets could not be saved: ${String(err)}` };
    }
    g.inFlight = false;
    if (r.ok) {
      g.id ??= r.orderid;
      if (quantity !== undefined) g.sent = quantity;
    } else if (!g.id) {
      if (r.outcome === 'unknown') g.unknown = true;
      else if (r.outcome === 'refused') {
        g.refusedReason = r.message;
        onHazard({
          kind: 'unprotected',
          entry: b.entry.orderid,
          leg: 'stop',
          quantity: quantity ?? 0,
          reason: r.message,
        });
      }
    } else if (r.outcome === 'unknown') delete g.sent;
    return r;
  }

  /** The GTT as its book has it: none yet, in doubt, active, or ended (and how). */
  function gttStatus(b: GttBracket): 'none' | 'pending' | 'active' | 'triggered' | 'ended' | 'refused' {
    const g = b.gtt;
    if (g.inFlight || g.unknown) return 'pending';
    if (!g.id) return g.refusedReason ? 'refused' : 'none';
    const row = gtts.get(g.id);
    if (!row) return 'pending';
    if (row.status === 'active') return 'active';
    if (row.status === 'triggered') return 'triggered';
    if (row.status === 'cancelled' && g.cancelledByUs) return 'ended';
    g.refusedReason ??= `the GTT was ${row.status} at the gateway`;
    return 'refused';
  }

  function adopt(b: GttBracket): void {
    const known = new Set([...brackets.values()].map((x) => x.gtt.id));
    const row = [...gtts.values()].find(
      (r) =>
        !known.has(r.trigger_id) &&
        r.symbol === b.entry.symbol &&
        r.exchange === b.entry.exchange &&
        r.trigger_prices.includes(b.stop!) &&
        r.trigger_prices.includes(b.target!),
    );
    if (row) {
      b.gtt.id = row.trigger_id;
      b.gtt.unknown = false;
      return;
    }
    b.gtt.unseenBooks = (b.gtt.unseenBooks ?? 0) + 1;
    if (b.gtt.unseenBooks >= patienceBooks) b.gtt = { inFlight: false, unknown: false, cancelledByUs: false };
  }

  function ensureLevels(b: GttBracket, row: OrderSnapshot): boolean {
    if (b.stop !== undefined && b.target !== undefined) return true;
    if (!(row.averagePrice > 0)) return false;
    const r = protectiveLevels({ action: 'BUY', price: row.averagePrice, tick: b.entry.tick }, b.entry.spec);
    if (!r.ok || r.levels.stop === undefined || r.levels.target === undefined) {
      onHazard({
        kind: 'levels',
        entry: b.entry.orderid,
        message: r.ok ? 'a GTT OCO needs both legs' : r.message,
      });
      return false;
    }
    b.stop = b.initialStop = r.levels.stop;
    b.target = r.levels.target;
    return true;
  }

  function look(b: GttBracket, sent: Promise<unknown>[]): void {
    const row = orders.get(b.entry.orderid);
    if (!row) return;
    if (b.gtt.unknown && !b.gtt.inFlight && b.stop !== undefined) adopt(b);
    const status = gttStatus(b);
    if (b.removing) {
      if (status === 'active' && b.gtt.id) {
        b.gtt.cancelledByUs = true;
        const id = b.gtt.id;
        sent.push(send(b, () => ports.cancel(id)));
      }
      return;
    }
    const filled = row.filledQuantity;
    if (filled === 0 || !ensureLevels(b, row)) return;
    if (status === 'none') sent.push(send(b, () => ports.place(order(b, filled)), filled));
    else if (status === 'refused')
      onHazard({
        kind: 'unprotected',
        entry: b.entry.orderid,
        leg: 'stop',
        quantity: filled,
        reason: b.gtt.refusedReason ?? '',
      });
    else if (status === 'active') {
      const at = gtts.get(b.gtt.id!)!;
      const resting = at.legs[0]?.quantity ?? 0;
      const stale = b.gtt.sent !== undefined && b.gtt.sent !== resting;
      if (!stale && resting !== filled) {
        const id = b.gtt.id!;
        sent.push(send(b, () => ports.modify({ ...order(b, filled), trigger_id: id }), filled));
      }
    }
  }

  function finished(b: GttBracket): boolean {
    const s = gttStatus(b);
    const row = orders.get(b.entry.orderid);
    if (s === 'triggered') return true;
    if (b.removing) return !b.flattenNext && s !== 'active' && s !== 'pending';
    return !!row && row.filledQuantity === 0 && (row.status === 'cancelled' || row.status === 'rejected');
  }

  function view(b: GttBracket): BracketView {
    const row = orders.get(b.entry.orderid);
    const entryFilled = row?.filledQuantity ?? 0;
    const s = gttStatus(b);
    const at = b.gtt.id ? gtts.get(b.gtt.id) : undefined;
    const quantity = s === 'active' ? (at?.legs[0]?.quantity ?? 0) : 0;
    const fired = s === 'triggered' ? at?.legs.findIndex((l) => l.triggered_order_id) : -1;
    const leg = (index: number, price: number | undefined): LegView => {
      const state: LegView['state'] =
        s === 'active'
          ? 'working'
          : s === 'pending'
            ? 'pending'
            : s === 'refused'
              ? 'refused'
              : s === 'triggered'
                ? fired === index
                  ? 'filled'
                  : 'cancelled'
                : s === 'ended'
                  ? 'cancelled'
                  : 'none';
      return {
        state,
        ...(b.gtt.id && s === 'active' ? { orderid: b.gtt.id } : {}),
        quantity,
        filled: state === 'filled' ? entryFilled : 0,
        ...(price !== undefined ? { price } : {}),
        ...(state === 'refused' && b.gtt.refusedReason ? { reason: b.gtt.refusedReason } : {}),
      };
    };
    const open = s === 'triggered' ? 0 : entryFilled;
    const { spec } = b.entry;
    const trail =
      spec.trailStep === undefined && spec.breakEven === undefined
        ? 'off'
        : b.stop === b.initialStop
          ? 'armed'
          : spec.breakEven &&
              row &&
              b.stop ===
                breakEvenLevel(
                  { action: 'BUY', price: row.averagePrice, tick: b.entry.tick },
                  spec.breakEven.offset,
                )
            ? 'breakeven'
            : 'trailing';
    const state =
      entryFilled === 0 ? 'waiting' : s === 'refused' ? 'unprotected' : open === 0 ? 'closed' : 'protected';
    return {
      entry: b.entry.orderid,
      symbol: b.entry.symbol,
      exchange: b.entry.exchange,
      product: b.entry.product,
      action: b.entry.action,
      tick: b.entry.tick,
      spec,
      kind: 'gtt',
      entryFilled,
      entryPrice: entryFilled > 0 ? (row?.averagePrice ?? 0) : 0,
      open,
      stop: leg(0, b.stop),
      target: leg(1, b.target),
      trail,
      state,
      ...(state === 'unprotected'
        ? { hazard: `UNPROTECTED: the GTT was refused: ${b.gtt.refusedReason ?? ''}`.trim() }
        : {}),
    };
  }

  return {
    has: (entry) => brackets.has(entry),
    attach(entry) {
      if (!brackets.has(entry.orderid))
        brackets.set(entry.orderid, {
          entry,
          gtt: { inFlight: false, unknown: false, cancelledByUs: false },
        });
    },
    async onBooks(o, g) {
      orders = new Map(o.map((r) => [r.orderid, r]));
      gtts = new Map(g.map((r) => [r.trigger_id, r]));
      const sent: Promise<unknown>[] = [];
      for (const b of brackets.values()) look(b, sent);
      await Promise.all(sent);
      for (const [id, b] of brackets) if (finished(b)) brackets.delete(id);
      return sent.length > 0;
    },
    async onPrice(symbol, exchange, ltp) {
      const sent: Promise<unknown>[] = [];
      for (const b of brackets.values()) {
        if (b.entry.symbol !== symbol || b.entry.exchange !== exchange) continue;
        b.ltp = ltp;
        const fill = orders.get(b.entry.orderid)?.averagePrice ?? 0;
        if (b.removing || b.stop === undefined || !(fill > 0) || gttStatus(b) !== 'active') continue;
        b.best = Math.max(b.best ?? ltp, ltp);
        const to = nextStop({
          fill: { action: 'BUY', price: fill, tick: b.entry.tick },
          spec: b.entry.spec,
          initialStop: b.initialStop!,
          currentStop: b.stop,
          best: b.best,
          ltp,
        });
        const resting = gtts.get(b.gtt.id!)?.legs[0]?.quantity ?? 0;
        if (to === undefined || to >= b.target! || (b.gtt.sent !== undefined && b.gtt.sent !== resting))
          continue;
        const was = b.stop;
        b.stop = to;
        const id = b.gtt.id!;
        sent.push(
          send(b, () => ports.modify({ ...order(b, resting), trigger_id: id }), resting).then((r) => {
            if (!r.ok && r.outcome === 'refused') b.stop = was;
          }),
        );
      }
      await Promise.all(sent);
    },
    needsGttBook: () => [...brackets.values()].some((b) => b.gtt.id !== undefined || b.gtt.unknown),
    views: () => [...brackets.values()].map(view),
    symbols: () =>
      [...brackets.values()]
        .filter((b) => !b.removing)
        .map((b) => ({ symbol: b.entry.symbol, exchange: b.entry.exchange })),
    async setLevels(entry, to) {
      const b = brackets.get(entry);
      if (!b || b.removing) return { ok: false, message: `order ${entry} has no protection attached` };
      if (gttStatus(b) !== 'active')
        return { ok: false, message: 'the GTT is not active at the gateway: nothing to move' };
      const stop = to.stop ?? b.stop!;
      const target = to.target ?? b.target!;
      const tick = exactOf(b.entry.tick);
      for (const [leg, at] of [
        ['stop', to.stop],
        ['target', to.target],
      ] as const)
        if (at !== undefined && !isMultipleOf(exactOf(at), tick))
          return { ok: false, message: `the ${leg} ${at} is not a multiple of the tick ${b.entry.tick}` };
      if (stop >= target) return { ok: false, message: 'a GTT OCO’s stop must be below its target' };
      const ref = b.ltp ?? 0;
      if (ref > 0 && (stop >= ref || target <= ref))
        return { ok: false, message: `the stop must be below and the target above the last price ${ref}` };
      const resting = gtts.get(b.gtt.id!)?.legs[0]?.quantity ?? 0;
      const was = { stop: b.stop, target: b.target, initialStop: b.initialStop };
      b.stop = b.initialStop = stop;
      b.target = target;
      delete b.best;
      const id = b.gtt.id!;
      const r = await send(b, () => ports.modify({ ...order(b, resting), trigger_id: id }), resting);
      if (r.ok) return { ok: true };
      if (r.outcome === 'unknown')
        return { ok: true, note: 'the move was sent without an answer: the GTT book will show it' };
      Object.assign(b, was);
      return { ok: false, message: `the GTT was not moved: ${r.message}` };
    },
    async remove(entry, o) {
      const b = brackets.get(entry);
      if (!b) return { ok: false, message: `order ${entry} has no protection attached` };
      b.removing = true;
      if (o?.flattenNext) b.flattenNext = true;
      if (gttStatus(b) === 'active' && b.gtt.id) {
        b.gtt.cancelledByUs = true;
        const id = b.gtt.id;
        await send(b, () => ports.cancel(id));
      }
      return { ok: true };
    },
    retry(entry) {
      const b = brackets.get(entry);
      if (!b || b.removing) return { ok: false, message: `order ${entry} has no protection attached` };
      if (gttStatus(b) !== 'refused')
        return { ok: false, message: 'the GTT of this bracket was not refused' };
      b.gtt = { inFlight: false, unknown: false, cancelledByUs: false };
      told.delete(`${entry}|unprotected`);
      return { ok: true };
    },
    async flatten(entry) {
      const b = brackets.get(entry);
      if (!b) return { ok: false, message: `order ${entry} has no protection attached` };
      const s = gttStatus(b);
      if (s === 'active' || s === 'pending')
        return {
          ok: false,
          message: 'the GTT still rests at the gateway (its cancel is not in the book yet): nothing sent',
        };
      delete b.flattenNext;
      if (s === 'triggered') return { ok: false, message: 'the GTT fired: the gateway closed the position' };
      if (b.flattened) return { ok: false, message: 'a flattening order of this bracket was already sent' };
      const quantity = orders.get(entry)?.filledQuantity ?? 0;
      if (quantity === 0) return { ok: false, message: 'nothing is open: the entry has not filled' };
      b.flattened = true;
      let r: SendResult;
      try {
        await ports.beforeSend?.();
        r = await ports.close({
          symbol: b.entry.symbol,
          exchange: b.entry.exchange,
          product: b.entry.product,
          quantity,
        });
      } catch (err) {
        r = { ok: false, outcome: 'not_sent', message: String(err) };
      }
      if (!r.ok && r.outcome !== 'unknown') b.flattened = false;
      if (r.ok) return { ok: true, orderid: r.orderid, action: 'SELL', quantity };
      return {
        ok: false,
        message: `the flattening order ${r.outcome === 'unknown' ? 'was sent without an answer' : 'was not sent'}: ${r.message}`,
      };
    },
    snapshot: () =>
      [...brackets.values()].map((b) => ({
        entry: b.entry,
        ...(b.stop !== undefined ? { stop: b.stop } : {}),
        ...(b.target !== undefined ? { target: b.target } : {}),
        ...(b.initialStop !== undefined ? { initialStop: b.initialStop } : {}),
        ...(b.best !== undefined ? { best: b.best } : {}),
        ...(b.removing ? { removing: true } : {}),
        ...(b.flattened ? { flattened: true } : {}),
        gtt: {
          ...(b.gtt.id !== undefined ? { id: b.gtt.id } : {}),
          unknown: b.gtt.unknown || (b.gtt.inFlight && b.gtt.id === undefined),
          cancelledByUs: b.gtt.cancelledByUs,
          ...(b.gtt.refusedReason !== undefined ? { refusedReason: b.gtt.refusedReason } : {}),
        },
      })),
    restore(list) {
      for (const s of list)
        if (!brackets.has(s.entry.orderid))
          brackets.set(s.entry.orderid, {
            entry: s.entry,
            ...(s.stop !== undefined ? { stop: s.stop } : {}),
            ...(s.target !== undefined ? { target: s.target } : {}),
            ...(s.initialStop !== undefined ? { initialStop: s.initialStop } : {}),
            ...(s.best !== undefined ? { best: s.best } : {}),
            ...(s.removing ? { removing: true } : {}),
            ...(s.flattened ? { flattened: true } : {}),
            gtt: {
              ...(s.gtt.id !== undefined ? { id: s.gtt.id } : {}),
              inFlight: false,
              unknown: s.gtt.unknown,
              cancelledByUs: s.gtt.cancelledByUs,
              ...(s.gtt.refusedReason !== undefined ? { refusedReason: s.gtt.refusedReason } : {}),
            },
          });
    },
  };
}
