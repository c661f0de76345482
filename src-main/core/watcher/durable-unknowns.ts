// Unknown outcomes that outlive the core: when one is handed to the watcher, what to look for is
// journalled with it (its check); a new core reads back the profile's unresolved ones of the trading
// day and the watcher settles them from the order book, writing the resolution. Nothing is resent.
import { z } from 'zod';
import { GTT_OPERATIONS } from '../gtt/gtt-interrupted.js';
import type { Journal, Unresolved } from '../journal/index.js';
import type { PendingUnknown, Resolution, UnknownIntent } from './reconciler.js';

const PlacedSchema = z.object({
  symbol: z.string(),
  exchange: z.string(),
  action: z.string(),
  quantity: z.number(),
  pricetype: z.string(),
  product: z.string(),
  price: z.number(),
});
const IntentSchema = z.discriminatedUnion('operation', [
  z.object({ operation: z.literal('placeorder'), order: PlacedSchema }),
  z.object({ operation: z.literal('splitorder'), strategy: z.string(), orders: z.array(PlacedSchema) }),
  z.object({ operation: z.literal('basketorder'), strategy: z.string(), orders: z.array(PlacedSchema) }),
  z.object({ operation: z.literal('cancelallorder'), strategy: z.string(), orderids: z.array(z.string()) }),
  z.object({ operation: z.literal('closeposition'), strategy: z.string() }),
  z.object({
    operation: z.literal('modifyorder'),
    orderid: z.string(),
    changes: z.object({ quantity: z.number(), price: z.number(), trigger_price: z.number() }),
  }),
  z.object({ operation: z.literal('cancelorder'), orderid: z.string() }),
]);
const CheckSchema = z.object({
  intent: IntentSchema,
  known: z.array(z.string()),
  /** Written for an entry OrderDesk stopped before answering: what was placed is told by time instead. */
  interrupted: z.object({ from: z.number(), strategy: z.string() }).optional(),
});
export type UnknownCheck = z.infer<typeof CheckSchema>;

/** What the journal keeps for an unknown outcome: the intent and the order ids in the book before the call. */
export function toCheck(intent: UnknownIntent, known: ReadonlySet<string>): UnknownCheck {
  return { intent, known: [...known] };
}

/**
 * A modify or cancel names its order, so its journalled request is enough to settle it. A placed order
 * (and a split's or basket's, and a close's counter-orders) is told apart from older ones only by the
 * book as it was before the call, and a cancel-all by the orders open then, which only the check
 * holds: without it, a guess could report an order that was never placed.
 */
function fromRequest(u: Unresolved): UnknownIntent | undefined {
  const r = z
    .object({
      orderid: z.string(),
      quantity: z.coerce.number().optional(),
      price: z.coerce.number().optional(),
      trigger_price: z.coerce.number().optional(),
    })
    .safeParse(u.entry.request);
  if (!r.success) return undefined;
  if (u.entry.operation === 'cancelorder') return { operation: 'cancelorder', orderid: r.data.orderid };
  if (u.entry.operation === 'modifyorder' && r.data.quantity !== undefined)
    return {
      operation: 'modifyorder',
      orderid: r.data.orderid,
      changes: {
        quantity: r.data.quantity,
        price: r.data.price ?? 0,
        trigger_price: r.data.trigger_price ?? 0,
      },
    };
  return undefined;
}

const IST_OFFSET_MS = 5.5 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight IST of the day holding `ms`: order books are per trading day, so older orders are gone. */
export function istDayStart(ms: number): number {
  return Math.floor((ms + IST_OFFSET_MS) / DAY_MS) * DAY_MS - IST_OFFSET_MS;
}

export interface Restored {
  pending: PendingUnknown[];
  /** Unknown outcomes nothing can settle automatically (no check, and not a modify or cancel). */
  unsettleable: Unresolved['entry'][];
}

/**
 * The profile's unresolved unknown outcomes of today, as the watcher tracks them. `claimed(id)`: the
 * order ids other journal entries hold, read at each look at the book, for an interrupted entry.
 */
export function restoreUnknowns(
  journal: Pick<Journal, 'unresolved'>,
  profileId: string,
  now: number,
  skip: ReadonlySet<string> = new Set(),
  claimed: (journalId: string) => ReadonlySet<string> = () => new Set(),
): Restored {
  const out: Restored = { pending: [], unsettleable: [] };
  for (const u of journal.unresolved(profileId, istDayStart(now))) {
    // A GTT action is settled from the GTT order book, by the GTT settler.
    if (skip.has(u.entry.id) || GTT_OPERATIONS.has(u.entry.operation)) continue;
    const check = CheckSchema.safeParse(u.check);
    const intent = check.success ? check.data.intent : fromRequest(u);
    if (!intent) {
      out.unsettleable.push(u.entry);
      continue;
    }
    out.pending.push({
      journalId: u.entry.id,
      intent,
      // Never in the future: a clock set back must not stretch the patience.
      since: Math.min(u.entry.finishedAt ?? u.entry.time, now),
      known: new Set(check.success ? check.data.known : []),
      polls: 0,
      ...(check.success && check.data.interrupted
        ? {
            // What was sent, in the words of the alert that announced it.
            ...(u.entry.error?.message ? { message: u.entry.error.message } : {}),
            interrupted: {
              ...check.data.interrupted,
              claimed: () => claimed(u.entry.id),
            },
          }
        : {}),
    });
  }
  return out;
}

/** The watcher's `resolved` port over the journal. */
export function journalResolution(journal: Pick<Journal, 'recordResolution'>) {
  return (r: Resolution): boolean =>
    journal.recordResolution(r.journalId, {
      found: r.found,
      message: r.message,
      ...(r.orderid !== undefined ? { orderid: r.orderid } : {}),
      // Held by this entry from now on: an interrupted action's match never takes them.
      ...(r.orderids !== undefined ? { orderids: r.orderids } : {}),
    });
}
