// Unknown outcomes of GTT actions (architecture rule 4): a placegttorder, modifygttorder or
// cancelgttorder that timed out or lost its connection is never sent again; the GTT order book
// (status `all`) decides. Pure: fed each read of the book that started after the unknown answer.
// - place: found when a GTT the book did not hold before the call has the same instrument, trigger
//   type, trigger prices and legs; for a call OrderDesk stopped during (no book before it), the one such
//   GTT created since the intent (less the clock-skew allowance) that no other journal entry holds; two
//   or more are left to the trader (undecided), none is "not placed" once the patience runs out;
// - modify: found when the GTT shows the requested triggers and legs; not when it is no longer active;
// - cancel: found when the GTT is cancelled; not when it is triggered (or otherwise done) instead.
// Until the patience runs out (reads and time, as for orders), a book that shows nothing yet waits.
import { z } from 'zod';
import type { GttRecord } from '../../contract/index.js';
import { formatMoney, formatQty } from '../../shared/format.js';
import { orderTimeMs } from '../watcher/interrupted-match.js';
import type { Patience } from '../watcher/reconciler.js';

/** What a GTT request asks for, in the book's terms (upper-case trigger type as sent). */
export const GttWant = z.object({
  symbol: z.string(),
  exchange: z.string(),
  trigger_type: z.string(),
  action: z.string(),
  quantity: z.number(),
  product: z.string(),
  pricetype: z.string(),
  price: z.number(),
  triggerprice_sl: z.number(),
  triggerprice_tg: z.number(),
  stoploss: z.number(),
  target: z.number(),
});
export type GttWant = z.infer<typeof GttWant>;

/** What the journal keeps for a GTT action whose outcome is unknown (its check). */
export const GttCheck = z.discriminatedUnion('operation', [
  z.object({
    operation: z.literal('placegttorder'),
    want: GttWant,
    known: z.array(z.string()),
    /** Written for a call OrderDesk stopped during: what it placed is told by time instead (epoch ms). */
    interrupted: z.object({ from: z.number() }).optional(),
  }),
  z.object({ operation: z.literal('modifygttorder'), triggerId: z.string(), want: GttWant }),
  z.object({ operation: z.literal('cancelgttorder'), triggerId: z.string() }),
]);
export type GttCheck = z.infer<typeof GttCheck>;

export interface PendingGtt {
  journalId: string;
  check: GttCheck;
  /** When the unknown answer came (ms). */
  since: number;
  /** Reads of the GTT book since then. */
  polls: number;
}

/** The fields of a place or modify request the book can show, as the handlers send them. */
export function gttWantOf(r: GttWant): GttWant {
  return {
    symbol: r.symbol,
    exchange: r.exchange,
    trigger_type: r.trigger_type,
    action: r.action,
    quantity: r.quantity,
    product: r.product,
    pricetype: r.pricetype,
    price: r.price,
    triggerprice_sl: r.triggerprice_sl,
    triggerprice_tg: r.triggerprice_tg,
    stoploss: r.stoploss,
    target: r.target,
  };
}

/** A GTT request in a trader's words: `SINGLE BUY 3 SBIN NSE, trigger 970.50, LIMIT @ 975.00 CNC`. */
export function describeGttWant(w: GttWant): string {
  const e = expected(w);
  const limit = w.pricetype.toUpperCase() === 'LIMIT';
  const prices = e.legs.map((l, i) => {
    const at = limit ? ` @ ${formatMoney(l.price)}` : '';
    return `trigger ${formatMoney(e.triggers[i] ?? 0)}, ${w.pricetype.toUpperCase()}${at}`;
  });
  return `${w.trigger_type.toUpperCase()} ${w.action.toUpperCase()} ${formatQty(w.quantity)} ${w.symbol} ${w.exchange}, ${prices.join('; ')} ${w.product}`;
}

/** Epoch ms of a GTT book stamp (IST, ISO without a zone, fractions of a second); undefined if unreadable. */
export function gttTimeMs(stamp: string): number | undefined {
  return orderTimeMs(stamp.trim().replace(/\.\d+$/, ''));
}

/** An interrupted place more than one GTT could be: only the trader can tell which. */
export interface GttUndecided {
  journalId: string;
  operation: 'placegttorder';
  triggerIds: string[];
  message: string;
}

export interface GttResolution {
  journalId: string;
  operation: GttCheck['operation'];
  found: boolean;
  triggerId?: string;
  message: string;
}

const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-6;

/** The trigger prices and legs a request makes, in the book's order (stoploss first for an OCO). */
export function expected(want: GttWant): {
  type: string;
  triggers: number[];
  legs: { price: number }[];
} {
  if (want.trigger_type.toUpperCase() === 'OCO')
    return {
      type: 'two-leg',
      triggers: [want.triggerprice_sl, want.triggerprice_tg],
      legs: [{ price: want.stoploss }, { price: want.target }],
    };
  const trigger = want.triggerprice_sl > 0 ? want.triggerprice_sl : want.triggerprice_tg;
  return { type: 'single', triggers: [trigger], legs: [{ price: want.price }] };
}

/** Whether a book row is what `want` asks for (instrument, type, triggers, every leg). */
export function rowMatches(row: GttRecord, want: GttWant, checkInstrument = true): boolean {
  const e = expected(want);
  if (checkInstrument) {
    if (row.symbol.toUpperCase() !== want.symbol.toUpperCase() || row.exchange !== want.exchange)
      return false;
    if (row.trigger_type.toLowerCase() !== e.type) return false;
  }
  if (row.trigger_prices.length !== e.triggers.length) return false;
  if (!row.trigger_prices.every((p, i) => near(p, e.triggers[i] ?? Number.NaN))) return false;
  if (row.legs.length !== e.legs.length) return false;
  const limit = want.pricetype.toUpperCase() === 'LIMIT';
  return row.legs.every(
    (l, i) =>
      l.action.toUpperCase() === want.action.toUpperCase() &&
      l.quantity === want.quantity &&
      l.product === want.product &&
      (!limit || near(l.price, e.legs[i]?.price ?? Number.NaN)),
  );
}

/**
 * One read of the GTT book (status `all`): which pending outcomes it settles, which wait on, and which
 * only the trader can settle. `claimed(journalId)`: the GTTs other journal entries hold (an interrupted
 * place's match never takes them).
 */
export function reconcileGtt(
  pending: readonly PendingGtt[],
  rows: readonly GttRecord[],
  now: number,
  patience: Patience,
  claimedBy: (journalId: string) => ReadonlySet<string> = () => new Set(),
): { resolved: GttResolution[]; remaining: PendingGtt[]; undecided: GttUndecided[] } {
  const resolved: GttResolution[] = [];
  const remaining: PendingGtt[] = [];
  const undecided: GttUndecided[] = [];
  const claimed = new Set<string>();
  const byId = new Map(rows.map((r) => [r.trigger_id, r]));
  // Oldest first: two identical unknown places claim the book's GTTs in the order they were sent.
  const oldestRows = [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at));
  for (const p0 of [...pending].sort((a, b) => a.since - b.since)) {
    const p = { ...p0, polls: p0.polls + 1 };
    const patient = p.polls >= patience.polls && now - p.since >= patience.ms;
    const c = p.check;
    const done = (found: boolean, message: string, triggerId?: string) =>
      resolved.push({
        journalId: p.journalId,
        operation: c.operation,
        found,
        message,
        ...(triggerId ? { triggerId } : {}),
      });
    if (c.operation === 'placegttorder' && c.interrupted) {
      const from = c.interrupted.from;
      const held = claimedBy(p.journalId);
      const ids = oldestRows
        .filter((r) => {
          if (held.has(r.trigger_id) || claimed.has(r.trigger_id) || !rowMatches(r, c.want)) return false;
          const at = gttTimeMs(r.created_at);
          // A stamp that cannot be read is kept: a real GTT must never be missed.
          return at === undefined || at >= from;
        })
        .map((r) => r.trigger_id);
      const what = `placegttorder ${describeGttWant(c.want)}`;
      const [only] = ids;
      if (only !== undefined && ids.length === 1) {
        claimed.add(only);
        done(true, `${what} took effect: GTT ${only} in the GTT order book`, only);
      } else if (ids.length > 1)
        undecided.push({
          journalId: p.journalId,
          operation: 'placegttorder',
          triggerIds: ids,
          message: `${what}: the GTT order book has ${ids.length} GTTs that could be it (${ids.join(', ')}) and no way to tell which; check the GTT order book`,
        });
      else if (patient) done(false, `${what} was not placed: no matching GTT in the GTT order book`);
      else remaining.push(p);
      continue;
    }
    if (c.operation === 'placegttorder') {
      const known = new Set(c.known);
      const row = oldestRows.find(
        (r) => !known.has(r.trigger_id) && !claimed.has(r.trigger_id) && rowMatches(r, c.want),
      );
      if (row) {
        claimed.add(row.trigger_id);
        done(
          true,
          `GTT ${row.trigger_id} was placed (found in the GTT order book, ${row.status})`,
          row.trigger_id,
        );
      } else if (patient) done(false, 'no matching GTT in the GTT order book: it was not placed');
      else remaining.push(p);
      continue;
    }
    const row = byId.get(c.triggerId);
    if (c.operation === 'cancelgttorder') {
      if (row?.status === 'cancelled') done(true, `GTT ${c.triggerId} is cancelled`, c.triggerId);
      else if (row && row.status !== 'active')
        done(false, `GTT ${c.triggerId} was not cancelled: it is ${row.status}`, c.triggerId);
      else if (patient) done(false, `GTT ${c.triggerId} was not cancelled: it is still active`, c.triggerId);
      else remaining.push(p);
      continue;
    }
    if (row && rowMatches(row, c.want, false)) done(true, `GTT ${c.triggerId} shows the change`, c.triggerId);
    else if (row && row.status !== 'active')
      done(false, `GTT ${c.triggerId} was not modified: it is ${row.status}`, c.triggerId);
    else if (patient) done(false, `GTT ${c.triggerId} does not show the change`, c.triggerId);
    else remaining.push(p);
  }
  return { resolved, remaining, undecided };
}
