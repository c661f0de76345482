// The service channels: the session snapshot, the write-only API key, profiles, settings, the journal
// (queries, and its export streamed to a file the shell chooses), alerts and the watcher's visibility.
// Gateway reads are in read-handlers.ts, order actions in order-handlers.ts.
import { isAbsolute } from 'node:path';
import {
  PAPER_PROFILE_ID,
  keyOriginOf,
  type ApiKeyStatus,
  type IpcResult,
  type PaperResetResult,
  type StorageStatus,
  type PingResponse,
  type ProfilesList,
} from '../../contract/index.js';
import { formatIstIso } from '../../shared/format.js';
import type { Clock, GatewayResult } from '../../gateway/index.js';
import type { Alerts } from '../alerts/index.js';
import { fileErrorCode, writeJournalCsv, type Journal } from '../journal/index.js';
import { ProfileError, type ProfileUpdated, type Profiles } from '../profiles/index.js';
import type { RouterSecretStore } from '../secrets/index.js';
import { SettingsError, type SettingsStore } from '../settings/index.js';
import type { Emit } from './event-bus.js';
import type { MarketChannels } from './market-handlers.js';
import type { GttChannels } from './gtt-handlers.js';
import type { GuardChannels } from './guard-handlers.js';
import type { OrderChannels } from './order-handlers.js';
import type { ProtectionChannels } from './protection-handlers.js';
import type { ReadChannels } from './read-handlers.js';
import type { StrategyChannels } from './strategy-handlers.js';
import { failResult, fromGateway, okResult } from './results.js';
import type { Handlers } from './router.js';
import type { Session } from './session.js';
import type { GatewayModeView } from '../gateway-mode.js';
import { sessionSnapshot } from './session-snapshot.js';

export interface ServiceDeps {
  session(): Session;
  /** Write-only view: the router can store a key, never read one. */
  secrets: RouterSecretStore;
  settings: SettingsStore;
  profiles: Profiles;
  journal: Journal;
  alerts: Alerts;
  emit: Emit;
  clock: Clock;
  /** The seq of the last event the bus emitted (the snapshot's `seq`). */
  lastSeq(): number;
  /** What the trader is told of the journal and the paper ledger (the snapshot's `storage`). */
  storage?(): StorageStatus;
  /** The active profile's mode (paper, sandbox, live) and feed (the snapshot's `mode`, `feed`). */
  gateway?(): GatewayModeView | undefined;
  /** `profiles.resetPaper`: the unavailable paper ledger kept aside, the paper gateway started afresh. */
  resetPaper?(): Promise<IpcResult<PaperResetResult>>;
  /**
   * The shell asks the user where to save a file (a save dialog); null: cancelled. Hosts without one
   * cannot export the journal to a file.
   */
  chooseSavePath?: (suggestedName: string) => Promise<string | null>;
  /**
   * Tries the given profile's key with `ping`, or `funds` where the gateway has no ping (through that
   * profile's own client, active or not).
   */
  testKey(profileId: string): Promise<GatewayResult<PingResponse>>;
  /** Remembered across profile switches. */
  setVisibility(visible: boolean): number;
  /** After a key change: the watcher should look again now. */
  keyChanged(profileId: string): void;
}

type ServiceChannels = Exclude<
  keyof Handlers,
  | OrderChannels
  | GttChannels
  | ReadChannels
  | MarketChannels
  | ProtectionChannels
  | GuardChannels
  | StrategyChannels
>;

function profileFailure<T>(err: unknown): IpcResult<T> {
  if (!(err instanceof ProfileError)) throw err;
  return failResult(err.kind, err.message);
}

export function serviceHandlers(d: ServiceDeps): Pick<Handlers, ServiceChannels> {
  async function keyStatus(profileId: string): Promise<ApiKeyStatus> {
    const [status, present] = await Promise.all([d.secrets.status(), d.secrets.has(profileId)]);
    return { ...status, profileId, present };
  }
  const target = (input: { profileId?: string | undefined } | undefined) =>
    input?.profileId ?? d.session().profile.id;

  async function profilesList(): Promise<IpcResult<ProfilesList>> {
    return okResult({ activeProfileId: d.profiles.active().id, profiles: await d.profiles.list() });
  }
  const known = (id: string) => d.profiles.get(id) !== undefined;
  const journalScope = <Q extends { profileId?: string | undefined }>(query: Q | undefined) => ({
    ...query,
    profileId: query?.profileId ?? d.session().profile.id,
  });

  return {
    'session.snapshot': () =>
      sessionSnapshot({
        session: d.session,
        keyStatus,
        alerts: d.alerts,
        lastSeq: d.lastSeq,
        ...(d.storage ? { storage: d.storage } : {}),
        ...(d.gateway ? { gateway: d.gateway } : {}),
      }),

    async 'apiKey.set'(input) {
      const profileId = target(input);
      const profile = d.profiles.get(profileId);
      if (!profile) return failResult('not_found', `no profile ${profileId}`);
      // A gateway profile's key is bound to the origin it is entered for (the paper key is OrderDesk's).
      await d.secrets.set(
        profileId,
        input.key,
        profile.kind === 'gateway' ? keyOriginOf(profile.baseUrl) : undefined,
      );
      const status = await keyStatus(profileId);
      d.emit('apiKey.status', status);
      d.keyChanged(profileId);
      return okResult(status);
    },
    async 'apiKey.clear'(input) {
      const profileId = target(input);
      if (!known(profileId)) return failResult('not_found', `no profile ${profileId}`);
      if (profileId === PAPER_PROFILE_ID)
        return failResult('conflict', 'the paper gateway key is managed by OrderDesk and cannot be cleared');
      await d.secrets.clear(profileId);
      const status = await keyStatus(profileId);
      d.emit('apiKey.status', status);
      d.keyChanged(profileId);
      return okResult(status);
    },
    async 'apiKey.test'(input) {
      const profileId = target(input);
      if (!known(profileId)) return failResult('not_found', `no profile ${profileId}`);
      const r = await d.testKey(profileId);
      if (!r.ok) return fromGateway(r);
      return okResult({ profileId, broker: r.value.data.broker, message: r.value.data.message });
    },
    async 'apiKey.status'(input) {
      const profileId = target(input);
      if (!known(profileId)) return failResult('not_found', `no profile ${profileId}`);
      return okResult(await keyStatus(profileId));
    },

    'profiles.list': () => profilesList(),
    async 'profiles.add'(input) {
      try {
        await d.profiles.add(input);
      } catch (err) {
        return profileFailure(err);
      }
      return profilesList();
    },
    async 'profiles.update'(input) {
      let updated: ProfileUpdated;
      try {
        updated = await d.profiles.update(input.id, input.changes);
      } catch (err) {
        return profileFailure(err);
      }
      const list = await profilesList();
      if (!updated.keyCleared || !list.ok) return list;
      const { profile } = updated;
      d.emit('apiKey.status', await keyStatus(profile.id));
      d.keyChanged(profile.id);
      const notice = `${profile.name} now points at ${keyOriginOf(profile.baseUrl)}, another address: its API key was removed so that it is not sent there. Enter the key again for this address.`;
      return okResult({ ...list.value, notice });
    },
    async 'profiles.remove'(input) {
      try {
        await d.profiles.remove(input.id);
      } catch (err) {
        return profileFailure(err);
      }
      return profilesList();
    },
    async 'profiles.switch'(input) {
      try {
        await d.profiles.switchTo(input.id);
      } catch (err) {
        return profileFailure(err);
      }
      return profilesList();
    },

    'profiles.resetPaper': () =>
      d.resetPaper ? d.resetPaper() : Promise.resolve(failResult('not_offered', 'no paper gateway here')),

    'settings.get': async () => okResult(d.settings.get()),
    async 'settings.update'(input) {
      try {
        const settings = await d.settings.patch(input);
        // Every open window and the shell follow the change, not only the page that made it.
        d.emit('settings.changed', { settings });
        return okResult(settings);
      } catch (err) {
        if (err instanceof SettingsError)
          return failResult('invalid_input', err.message, { fields: err.fields });
        throw err;
      }
    },

    // The active profile's rows unless another profile is named: a switch never mixes journals.
    'journal.query': async (input) => okResult(d.journal.query(journalScope(input))),
    async 'journal.exportCsv'(input) {
      if (!d.chooseSavePath) return failResult('not_offered', 'this OrderDesk host cannot save files');
      const query = journalScope(input);
      const day = formatIstIso(d.clock.now()).slice(0, 10);
      const path = await d.chooseSavePath(`orderdesk-journal-${query.profileId}-${day}.csv`);
      if (path === null) return okResult({ kind: 'cancelled' });
      if (!isAbsolute(path))
        return failResult('io', `the journal can only be saved to a full path, not ${path}`);
      try {
        return okResult({ kind: 'saved', path, rows: await writeJournalCsv(d.journal.pages(query), path) });
      } catch (err) {
        const code = fileErrorCode(err);
        if (code === undefined) throw err;
        return failResult('io', `the journal could not be saved to ${path} (${code})`);
      }
    },

    'alerts.mute': async (input) => okResult(d.alerts.mute(input.orderid, input.muted)),
    'alerts.pause': async (input) => okResult(await d.alerts.pause(input.paused)),
    'alerts.dismiss': async (input) => okResult(d.alerts.dismiss(input.id)),

    'watcher.setVisibility': async (input) => okResult({ intervalMs: d.setVisibility(input.visible) }),
  };
}
