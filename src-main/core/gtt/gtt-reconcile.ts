// Unknown outcomes of GTT actions (architecture rule 4): a placegttorder, modifygttorder or
// cancelgttorder that timed out or lost its connection is never sent again; the GTT order book
// (status `all`) decides. Pure: fed each read of the book that started after the unknown answer.
// - place: found when a GTT the book did not hold before the call has the same instrument, trigger
//   type, trigger prices and legs;
// - modify: found when the GTT shows the requested triggers and legs; not when it is no longer active;
// - cancel: found when the GTT is cancelled; not when it is triggered (or otherwise done) instead.
// Until the patience runs out (reads and time, as for orders), a book that shows nothing yet waits.
import { z } from 'zod';
import type { GttRecord } from '../../contract/index.js';
import type { Patience } from '../watcher/index.js';

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
  z.object({ operation: z.literal('placegttorder'), want: GttWant, known: z.array(z.string()) }),
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

/** One read of the GTT book (status `all`): which pending outcomes it settles, and which wait on. */
export function reconcileGtt(
  pending: readonly PendingGtt[],
  rows: readonly GttRecord[],
  now: number,
  patience: Patience,
): { resolved: GttResolution[]; remaining: PendingGtt[] } {
  const resolved: GttResolution[] = [];
  const remaining: PendingGtt[] = [];
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
  return { resolved, remaining };
}
