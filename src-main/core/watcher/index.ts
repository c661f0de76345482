export { createWatcher } from './watcher.js';
export type { Watcher, WatcherClient, WatcherOptions } from './watcher.js';
export { openSeenStore, WATCHER_DB } from './seen-store.js';
export type { SeenState, SeenStore } from './seen-store.js';
export { diffOrderBook, orderChanges, toSnapshot, isActive } from './order-diff.js';
export type { OrderChange, SeenOrder } from './order-diff.js';
export { diffPositions, mtmOf, toPositionView, totalMtm } from './position-diff.js';
export { toFundsView, toHoldingsView, toOrdersView, toPositionsView, toTradesView } from './book-views.js';
export { pollInterval } from './poll-interval.js';
export { reconcile, DEFAULT_PATIENCE } from './reconciler.js';
export { istDayStart, journalResolution, restoreUnknowns, toCheck } from './durable-unknowns.js';
export type { Restored, UnknownCheck } from './durable-unknowns.js';
export type {
  PendingUnknown,
  Patience,
  PlacedOrder,
  Resolution,
  Undecided,
  UnknownIntent,
} from './reconciler.js';
export {
  adoptInterrupted,
  claimedOrderIds,
  intentOfRequest,
  INTERRUPTED_KIND,
  INTERRUPTED_MIN_AGE_MS,
  nextAdoptionAt,
} from './interrupted-intents.js';
export { adoptFoundInBook } from './book-adoption.js';
export type { Interrupted } from './interrupted-intents.js';
export {
  matchInterrupted,
  orderShapeKey,
  orderTimeMs,
  describeIntent,
  restsAtPrice,
  CLOCK_SKEW_MS,
} from './interrupted-match.js';
