// A core restarted within seconds of a crash need not wait INTERRUPTED_MIN_AGE_MS (kept for another
// process that may still be waiting on its call) to settle an order the crashed run had in flight when
// the order book can already say: an earlier run's pending placing entry (an order, a split, a basket)
// whose orders the book shows exactly (placed since its intent, less the skew allowance, claimed by no
// other entry, one per leg) is adopted on that read, and the watcher settles it on the next. One the
// book cannot tell yet stays pending (the hold on its twin covers the gap) until a read can, or until
// it comes of age. Nothing is ever resent.
import type { OrderSnapshot } from '../../contract/index.js';
import type { Journal } from '../journal/index.js';
import type { Logger } from '../ports.js';
import { istDayStart } from './durable-unknowns.js';
import {
  adoptEntry,
  claimedOrderIds,
  intentOfRequest,
  strategyOf,
  type Interrupted,
} from './interrupted-intents.js';
import { CLOCK_SKEW_MS, matchInterrupted, type InterruptedWant } from './interrupted-match.js';

/**
 * The profile's pending placing entries written before `before` (this core's start) that `orders`
 * settle exactly, adopted (unknown, `interrupted`, with their check) and returned to be announced.
 */
export function adoptFoundInBook(
  journal: Pick<Journal, 'query' | 'pages' | 'recordOutcome' | 'recordCheck'>,
  profileId: string,
  orders: readonly OrderSnapshot[],
  now: number,
  before: number,
  logger: Logger,
): Interrupted[] {
  const day = Math.max(0, istDayStart(now));
  const pending = journal.query({
    profileId,
    outcome: 'pending',
    from: day,
    to: Math.max(day, before),
    order: 'asc',
    limit: 1000,
  });
  const adopted: Interrupted[] = [];
  /** Orders taken by an earlier entry of this read (oldest first: placement order). */
  const taken = new Set<string>();
  for (const entry of pending) {
    const intent = intentOfRequest(entry.operation, entry.request);
    let want: InterruptedWant | undefined;
    if (intent?.operation === 'placeorder')
      want = { kind: 'legs', strategy: strategyOf(entry.request), legs: [intent.order] };
    else if (intent?.operation === 'splitorder' || intent?.operation === 'basketorder')
      want = { kind: 'legs', strategy: intent.strategy, legs: intent.orders };
    // A close's counter-orders are any MARKET orders of the strategy: left to the age rule.
    if (!want) continue;
    const claimed = claimedOrderIds(journal, profileId, day, entry.id);
    for (const id of taken) claimed.add(id);
    const match = matchInterrupted(want, orders, entry.time - CLOCK_SKEW_MS, claimed);
    if (match.kind !== 'exact') continue;
    const done = adoptEntry(journal, entry, logger);
    if (!done) continue;
    for (const id of match.orderids) taken.add(id);
    adopted.push(done);
  }
  return adopted;
}
