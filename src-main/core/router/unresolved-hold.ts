// The hold on an order whose identical twin's outcome is in doubt: an earlier intent of the same
// profile (today, in the last ten minutes) with the same symbol, exchange, action, quantity, price,
// product and price type that is still pending (no answer recorded: in flight, or OrderDesk stopped
// during the call), an unknown outcome the order book has not settled, or one settled "placed after
// all" moments ago (the trader pressing again is most likely retrying what looked lost). Whatever the
// duplicate window says, the order is held back with the reason in words until the trader sends it
// deliberately. The journal is the memory: an earlier run or another process left nothing else behind.
// A GTT placement is held the same way by an identical earlier GTT placement in doubt (same instrument,
// trigger type, triggers, prices and legs); a GTT and an order are never each other's twin.
import type { JournalEntry } from '../../contract/index.js';
import { formatIstTime, formatMoney, formatQty } from '../../shared/format.js';
import { gttPlaceWant } from '../gtt/gtt-interrupted.js';
import { describeGttWant, expected, type GttWant } from '../gtt/gtt-reconcile.js';
import type { Journal } from '../journal/index.js';
import { istDayStart, orderShapeKey, restsAtPrice } from '../watcher/index.js';
import { admittedLegs } from './recent-orders.js';
import type { RiskLeg } from './risk-gate.js';

/** Times in these messages are bare IST wall-clock (`09:15:02`). */
const CLOCK = { zone: false } as const;

/** How long an unknown outcome settled "placed after all" still holds its twin back. */
export const SETTLED_HOLD_MS = 30_000;

/**
 * How far back the journal is read, on every order (journal.inDoubt: read only when an entry of the
 * profile is pending or unknown). An entry stays pending (no answer) for the
 * client's 15 s timeout at most, unless its process died: a starting core then makes it an unknown
 * outcome once 20 s old, which the book settles within seconds, or leaves to the trader (several
 * orders could be its) with an alert. Reading the whole day cost ~6 ms an order over 5,000 entries.
 */
export const HOLD_LOOKBACK_MS = 10 * 60_000;

type Leg = Pick<RiskLeg, 'symbol' | 'exchange' | 'action' | 'quantity' | 'price' | 'product' | 'pricetype'>;

/** What tells one order from another; the hold compares symbols without their surrounding spaces. */
const shapeOf = (o: Leg): string => orderShapeKey({ ...o, symbol: o.symbol.trim() });

function describeLeg(o: Leg): string {
  const at = restsAtPrice(o.pricetype) ? ` @ ${formatMoney(o.price)}` : '';
  return `${o.action} ${formatQty(o.quantity)} ${o.symbol} ${o.exchange} ${o.pricetype}${at} ${o.product}`;
}

/** A smart order's leg is what it decided, which only its journalled check (an unknown outcome) holds. */
function smartLeg(check: unknown): Leg[] {
  const intent = (check as { intent?: { operation?: unknown; order?: Partial<Leg> } } | null)?.intent;
  const o = intent?.operation === 'placeorder' ? intent.order : undefined;
  return o &&
    typeof o.symbol === 'string' &&
    typeof o.exchange === 'string' &&
    typeof o.action === 'string' &&
    typeof o.quantity === 'number' &&
    typeof o.price === 'number' &&
    typeof o.product === 'string' &&
    typeof o.pricetype === 'string'
    ? [o as Leg]
    : [];
}

const AGAIN = 'send it again only if you mean a second order';
const AGAIN_GTT = 'send it again only if you mean a second GTT';

/** What is held, and how the journal's entries are read for it. */
interface Twins {
  /** The shapes of an entry's legs that are twins of the new request, with their words. */
  twin(e: JournalEntry, check: () => unknown): string | undefined;
  /** Whether the entry's check (its decided leg) is needed: a smart order's. */
  needsCheck(e: JournalEntry): boolean;
  noun: 'order' | 'GTT';
  again: string;
}

function findTwin(
  journal: Pick<Journal, 'inDoubt' | 'unresolved'>,
  profileId: string,
  now: number,
  t: Twins,
): string | undefined {
  // Order books are per trading day; never before the epoch (a test clock may start at 0).
  const from = Math.max(0, istDayStart(now), now - HOLD_LOOKBACK_MS);
  const unsettled = (e: JournalEntry, words: string) =>
    `the same ${t.noun} from ${formatIstTime(e.time, CLOCK)} is still being reconciled (${words}: its outcome is not known yet); ${t.again}`;

  const none = () => undefined;
  const doubtful = journal.inDoubt(profileId, from);
  for (const e of doubtful) {
    if (e.outcome !== 'pending') continue;
    const words = t.twin(e, none);
    if (words) return unsettled(e, words);
  }
  const unknowns = doubtful.filter((e) => e.outcome === 'unknown');
  const checks =
    unknowns.some((e) => !e.resolution && t.needsCheck(e)) &&
    new Map(journal.unresolved(profileId, from).map((u) => [u.entry.id, u.check]));
  for (const e of unknowns) {
    const words = !e.resolution && t.twin(e, () => (checks ? checks.get(e.id) : undefined));
    if (words) return unsettled(e, words);
  }
  for (const e of unknowns) {
    const r = e.resolution;
    // Placed (all or part of it), and settled lately: the trader may not have taken it in yet.
    if (!r || e.orderIds.length === 0 || now - r.time >= SETTLED_HOLD_MS) continue;
    const words = t.twin(e, none);
    const where = t.noun === 'GTT' ? 'the GTT order book' : 'the order book';
    if (words)
      return `the same ${t.noun} from ${formatIstTime(e.time, CLOCK)} was placed after all (${t.noun} ${e.orderIds.join(', ')}, found in ${where} at ${formatIstTime(r.time, CLOCK)}; ${words}); ${t.again}`;
  }
  return undefined;
}

/**
 * Why `legs` must be held back, in words; undefined when no identical earlier intent is in doubt. The
 * oldest unsettled twin is named first, then one settled "placed after all" lately.
 */
export function unresolvedTwin(
  journal: Pick<Journal, 'inDoubt' | 'unresolved'>,
  profileId: string,
  legs: readonly Leg[],
  now: number,
): string | undefined {
  const wanted = new Set(legs.map(shapeOf));
  return findTwin(journal, profileId, now, {
    noun: 'order',
    again: AGAIN,
    needsCheck: (e) => e.operation === 'placesmartorder',
    twin(e, check) {
      const entryLegs = e.operation === 'placesmartorder' ? smartLeg(check()) : admittedLegs(e);
      const leg = entryLegs.find((l) => wanted.has(shapeOf(l)));
      return leg && describeLeg(leg);
    },
  });
}

/** What tells one GTT from another: its instrument, type, triggers and each leg's limit. */
function gttShapeOf(w: GttWant): string {
  const e = expected(w);
  const limit = w.pricetype.toUpperCase() === 'LIMIT';
  return JSON.stringify([
    w.symbol.trim().toUpperCase(),
    w.exchange.toUpperCase(),
    e.type,
    w.action.toUpperCase(),
    w.quantity,
    w.pricetype.toUpperCase(),
    w.product.toUpperCase(),
    e.triggers,
    limit ? e.legs.map((l) => l.price) : null,
  ]);
}

/** Why a GTT placement must be held back, in words; undefined when no identical one is in doubt. */
export function unresolvedGttTwin(
  journal: Pick<Journal, 'inDoubt' | 'unresolved'>,
  profileId: string,
  want: GttWant,
  now: number,
): string | undefined {
  const wanted = gttShapeOf(want);
  return findTwin(journal, profileId, now, {
    noun: 'GTT',
    again: AGAIN_GTT,
    needsCheck: () => false,
    twin(e) {
      if (e.error && (e.error.kind === 'risk' || e.error.kind === 'unresolved_duplicate')) return undefined;
      const w = gttPlaceWant(e);
      return w && gttShapeOf(w) === wanted ? describeGttWant(w) : undefined;
    },
  });
}
