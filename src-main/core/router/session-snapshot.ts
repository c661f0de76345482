// `session.snapshot`: the active profile, its connection, key status, alerts, the watcher's books and
// the unknown outcomes it is still settling, with the seq of the last event they reflect. Everything after the one await is read in the same
// tick, so no event can fall between the views and the seq: a client applies exactly the events
// whose seq is greater.
import type {
  ApiKeyStatus,
  IpcResult,
  PendingUnknownView,
  SessionSnapshot,
  StorageStatus,
} from '../../contract/index.js';
import type { Alerts } from '../alerts/index.js';
import type { GatewayModeView } from '../gateway-mode.js';
import type { PendingUnknown } from '../watcher/index.js';
import { failResult, okResult } from './results.js';
import type { Session } from './session.js';

export interface SnapshotDeps {
  session(): Session;
  keyStatus(profileId: string): Promise<ApiKeyStatus>;
  alerts: Pick<Alerts, 'state'>;
  lastSeq(): number;
  /** A damaged journal salvaged at start, an unavailable paper ledger. */
  storage?(): StorageStatus;
  /** The active profile's mode and feed as the core knows them (gateway-mode.ts). */
  gateway?(): GatewayModeView | undefined;
}

/** Said for an unknown outcome restored from the journal by a restarted core (its error was not kept). */
export const RESTORED_UNKNOWN_MESSAGE = 'outcome unknown since before OrderDesk restarted';

/** A pending unknown outcome as the orders.unknown event that announced it (less its seq). */
function asUnknownEvent(profileId: string, p: PendingUnknown): PendingUnknownView {
  const i = p.intent;
  return {
    profileId,
    time: p.since,
    journalId: p.journalId,
    operation: i.operation,
    ...(i.operation === 'modifyorder' || i.operation === 'cancelorder' ? { orderid: i.orderid } : {}),
    message: p.message ?? RESTORED_UNKNOWN_MESSAGE,
  };
}

/** Key lookups redone when the profile switched during one, before giving up. */
const SWITCH_RETRIES = 3;

export async function sessionSnapshot(d: SnapshotDeps): Promise<IpcResult<SessionSnapshot>> {
  for (let attempt = 0; attempt <= SWITCH_RETRIES; attempt++) {
    const s = d.session();
    const apiKey = await d.keyStatus(s.profile.id);
    // A switch while the key was looked up: that status is another profile's.
    if (d.session() !== s) continue;
    // From here on, no await: one moment's state.
    const views = s.watcher.views();
    const known = d.gateway?.();
    const gateway = known?.profileId === s.profile.id ? known : undefined;
    return okResult({
      profile: { ...s.profile, active: true, hasKey: apiKey.present },
      mode: gateway?.mode ?? (s.profile.kind === 'paper' ? 'paper' : 'live'),
      ...(gateway ? { modeWhy: gateway.modeWhy, feed: gateway.feed } : {}),
      connection: views.connection,
      apiKey,
      alerts: d.alerts.state(),
      orders: views.orders,
      trades: views.trades,
      positions: views.positions,
      funds: views.funds,
      // Read in the same tick as the books: an outcome settled by the poll that produced them is gone.
      unknowns: s.watcher.pendingUnknowns().map((p) => asUnknownEvent(s.profile.id, p)),
      ...(d.storage ? { storage: d.storage() } : {}),
      seq: d.lastSeq(),
    });
  }
  return failResult('conflict', 'the active profile kept changing while the snapshot was taken; ask again');
}
