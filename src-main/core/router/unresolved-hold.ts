// The hold on an order whose identical twin's outcome is in doubt: an earlier intent of the same
// profile (today, in the last ten minutes) with the same symbol, exchange, action, quantity, price,
// product and price type that is still pending (no answer recorded: in flight, or OrderDesk stopped
// during the call), an unknown outcome the order book has not settled, or one settled "placed after
// all" moments ago (the trader pressing again is most likely retrying what looked lost). Whatever the
// duplicate window says, the order is held back with the reason in words until the trader sends it
// deliberately. The journal is the memory: an earlier run or another process left nothing else behind.
import { formatIstTime, formatMoney, formatQty, type JournalEntry } from '../../contract/index.js';
import type { Journal } from '../journal/index.js';
import { istDayStart } from '../watcher/index.js';
import { admittedLegs } from './recent-orders.js';
import type { RiskLeg } from './risk-gate.js';

/** How long an unknown outcome settled "placed after all" still holds its twin back. */
export const SETTLED_HOLD_MS = 30_000;

/**
 * How far back the journal is read, on every order. An entry stays pending (no answer) for the
 * client's 15 s timeout at most, unless its process died: a starting core then makes it an unknown
 * outcome once 20 s old, which the book settles within seconds, or leaves to the trader (several
 * orders could be its) with an alert. Reading the whole day cost ~6 ms an order over 5,000 entries.
 */
export const HOLD_LOOKBACK_MS = 10 * 60_000;

type Leg = Pick<RiskLeg, 'symbol' | 'exchange' | 'action' | 'quantity' | 'price' | 'product' | 'pricetype'>;

/** What tells one order from another; the price only where the order rests at one. */
function shapeOf(o: Leg): string {
  const priced = o.pricetype === 'LIMIT' || o.pricetype === 'SL';
  return JSON.stringify([
    o.symbol.trim().toUpperCase(),
    o.exchange.toUpperCase(),
    o.action.toUpperCase(),
    o.quantity,
    o.pricetype.toUpperCase(),
    o.product.toUpperCase(),
    priced ? o.price : null,
  ]);
}

function describeLeg(o: Leg): string {
  const priced = o.pricetype === 'LIMIT' || o.pricetype === 'SL';
  const at = priced ? ` @ ${formatMoney(o.price)}` : '';
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

/**
 * Why `legs` must be held back, in words; undefined when no identical earlier intent is in doubt. The
 * oldest unsettled twin is named first, then one settled "placed after all" lately.
 */
export function unresolvedTwin(
  journal: Pick<Journal, 'query' | 'unresolved'>,
  profileId: string,
  legs: readonly Leg[],
  now: number,
): string | undefined {
  const wanted = new Set(legs.map(shapeOf));
  // Order books are per trading day; never before the epoch (a test clock may start at 0).
  const from = Math.max(0, istDayStart(now), now - HOLD_LOOKBACK_MS);
  const twin = (e: JournalEntry, entryLegs: readonly Leg[]) => entryLegs.find((l) => wanted.has(shapeOf(l)));
  const unsettled = (e: JournalEntry, leg: Leg) =>
    `the same order from ${formatIstTime(e.time)} is still being reconciled (${describeLeg(leg)}: its outcome is not known yet); ${AGAIN}`;

  const query = { profileId, from, order: 'asc', limit: 10_000 } as const;
  for (const e of journal.query({ ...query, outcome: 'pending' })) {
    const leg = twin(e, admittedLegs(e));
    if (leg) return unsettled(e, leg);
  }
  const unknowns = journal.query({ ...query, outcome: 'unknown' });
  const checks =
    unknowns.some((e) => !e.resolution && e.operation === 'placesmartorder') &&
    new Map(journal.unresolved(profileId, from).map((u) => [u.entry.id, u.check]));
  const legsOf = (e: JournalEntry) =>
    e.operation === 'placesmartorder' ? smartLeg(checks ? checks.get(e.id) : undefined) : admittedLegs(e);
  for (const e of unknowns) {
    const leg = !e.resolution && twin(e, legsOf(e));
    if (leg) return unsettled(e, leg);
  }
  for (const e of unknowns) {
    const r = e.resolution;
    // Placed (all or part of it), and settled lately: the trader may not have taken it in yet.
    if (!r || e.orderIds.length === 0 || now - r.time >= SETTLED_HOLD_MS) continue;
    const leg = twin(e, admittedLegs(e));
    if (leg)
      return `the same order from ${formatIstTime(e.time)} was placed after all (order ${e.orderIds.join(', ')}, found in the order book at ${formatIstTime(r.time)}; ${describeLeg(leg)}); ${AGAIN}`;
  }
  return undefined;
}
