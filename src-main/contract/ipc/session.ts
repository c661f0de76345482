// `session.snapshot`: everything a freshly loaded window needs in one call, so a reload never shows an
// empty desk. The desk loads it, then applies the events whose `seq` is greater than its `seq`.
import { z } from 'zod';
import { ProfileView } from '../../contract/core/index.js';
import { AlertsState, ApiKeyStatus, CONNECTION_STATES, OrderUnknownEvent } from './events.js';
import { SessionFeed, SessionMode } from './session-mode.js';
import { StorageStatus } from './storage.js';
import { FundsView, OrdersView, PositionsView, TradesView } from './views.js';

export { FEED_STATES, SESSION_MODES, SessionFeed, SessionGatewayEvent, SessionMode } from './session-mode.js';

/** The gateway connection as last seen; `connecting` until the profile's first answer. */
export const SessionConnection = z.enum([...CONNECTION_STATES, 'connecting']);
export type SessionConnection = z.infer<typeof SessionConnection>;

export const SessionSnapshot = z.object({
  /** The active profile (no key: only whether one is stored). */
  profile: ProfileView,
  mode: SessionMode,
  /** Why the mode is what it is, in words (analyze mode reported, marked by hand); absent: older core. */
  modeWhy: z.string().optional(),
  /** Whether the feed streams or the desk polls (`session.gateway` at each change); absent: older core. */
  feed: SessionFeed.optional(),
  connection: SessionConnection,
  apiKey: ApiKeyStatus,
  alerts: AlertsState,
  /** The books as the watcher last read them; null until its first read of that book. */
  orders: OrdersView.nullable(),
  trades: TradesView.nullable(),
  positions: PositionsView.nullable(),
  funds: FundsView.nullable(),
  /**
   * Order actions whose outcome is still unknown (their orders.unknown, not yet orders.reconciled), so
   * a reloaded window shows them as reconciling until the orders.reconciled after `seq` settles them.
   * Absent from an older core: none known.
   */
  unknowns: z.array(OrderUnknownEvent).optional(),
  /** A damaged journal salvaged at start, an unavailable paper ledger (`session.storage`). */
  storage: StorageStatus.optional(),
  /** The last event this snapshot reflects (0: none yet); events after it carry a greater seq. */
  seq: z.number().int().nonnegative(),
});
export type SessionSnapshot = z.infer<typeof SessionSnapshot>;
/** An unknown outcome still pending, as the snapshot lists it (its orders.unknown, less the seq). */
export type PendingUnknownView = z.infer<typeof OrderUnknownEvent>;

/** What the active profile's watcher knows of the session. */
export type WatcherViews = Pick<SessionSnapshot, 'connection' | 'orders' | 'trades' | 'positions' | 'funds'>;
