// What the core tells the trader of its files at rest (contract/ipc/storage.ts): a journal salvaged at
// start, with how many entries were saved of how many, and a paper ledger that could not be opened,
// which leaves the paper profile unavailable (not the app stopped) until the paper account is reset.
import type {
  IpcResult,
  JournalRecoveryNotice,
  PaperResetResult,
  PaperUnavailable,
  StorageStatus,
} from '../contract/index.js';
import { createGatewayClient, type Clock, type GatewayClient } from '../gateway/index.js';
import type { Logger } from './ports.js';
import type { Emit } from './router/event-bus.js';
import { failResult, okResult } from './router/results.js';
import { moveAside, type SqliteRecovery } from './sqlite-salvage.js';

/** "The journal was damaged: 23 of 24 entries saved; the damaged file is kept at …" */
export function journalNotice(recovery: SqliteRecovery): JournalRecoveryNotice {
  const saved = recovery.salvaged.intents ?? 0;
  const written = recovery.sequence.intents;
  const total = written === undefined ? null : Math.max(written, saved);
  const rebuilt = recovery.rebuilt.intents ?? 0;
  const count =
    (total === null
      ? `${saved} entries saved (how many it held could not be read)`
      : `${saved} of ${total} entries saved`) +
    (rebuilt > 0 ? ` (${rebuilt} of them without what was sent: only their time and outcome)` : '');
  return {
    backupPath: recovery.backupPath,
    saved,
    total,
    message: `The journal was damaged: ${count}; the damaged file is kept at ${recovery.backupPath}`,
  };
}

/**
 * The embedded paper gateway's ledger could not be opened (thrown by the composition's paper port,
 * which knows the file): the paper profile is unavailable, the rest of OrderDesk runs on.
 */
export class PaperUnavailableError extends Error {
  override name = 'PaperUnavailableError';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`the paper ledger ${file} could not be opened (${reason})`);
  }
}

export function paperUnavailable(err: PaperUnavailableError): PaperUnavailable {
  return {
    file: err.file,
    reason: err.reason,
    message: `The paper account is unavailable: its ledger ${err.file} could not be opened (${err.reason}). Reset the paper account to start it afresh (the damaged file is kept), or switch to a live profile.`,
  };
}

export interface StorageState {
  /** What the trader is told now (the snapshot's `storage`; `session.storage` at each change). */
  status(): StorageStatus;
  /** The journal was found damaged at open and salvaged. */
  journalSalvaged(recovery: SqliteRecovery): void;
  /**
   * Starts the paper gateway with `start`; false (the paper profile marked unavailable, and said)
   * when its ledger cannot be opened. Any other failure is thrown as it was.
   */
  paperStarts(start: () => Promise<unknown>): Promise<boolean>;
  /** The paper profile's client while it is unavailable: every call refused before any network. */
  unavailableClient(): GatewayClient;
  /** Order channels refused as `storage` while the active profile is the unavailable paper one. */
  refusal(channel: string, activeKind: string | undefined): IpcResult<never> | undefined;
  /** `profiles.resetPaper`: the ledger kept aside, then `restart` (the paper gateway afresh). */
  resetPaper(restart: () => Promise<void>): Promise<IpcResult<PaperResetResult>>;
}

export function createStorageState(d: { emit: Emit; logger: Logger; clock: Clock }): StorageState {
  let status: StorageStatus = {};
  const set = (next: StorageStatus) => {
    status = next;
    d.emit('session.storage', status);
  };
  const down = () => status.paper;
  return {
    status: () => status,
    journalSalvaged(recovery) {
      set({ ...status, journal: journalNotice(recovery) });
    },
    async paperStarts(start) {
      try {
        await start();
        return true;
      } catch (err) {
        if (!(err instanceof PaperUnavailableError)) throw err;
        const paper = paperUnavailable(err);
        d.logger.warn(paper.message);
        set({ ...status, paper });
        return false;
      }
    },
    unavailableClient() {
      const message = down()?.message ?? 'The paper account is unavailable.';
      return createGatewayClient({
        // Loopback's discard port: never asked (the fetch below refuses), and no host outside this computer.
        baseUrl: 'http://127.0.0.1:9',
        // A stand-in key the client redacts from every message: one no message holds a run of (an
        // English word here would be blanked out of the words that say why).
        getApiKey: () => 'x'.repeat(64),
        clock: d.clock,
        rateLimit: 0,
        retry: { maxRetries: 0 },
        // Refused as "never connected": no request leaves, so nothing can have been acted on.
        fetch: async () => {
          throw Object.assign(new Error(message), { code: 'ECONNREFUSED' });
        },
      });
    },
    refusal(channel, activeKind) {
      const paper = down();
      if (!paper || activeKind !== 'paper' || !channel.startsWith('orders.')) return undefined;
      return failResult('storage', paper.message);
    },
    async resetPaper(restart) {
      const paper = down();
      if (!paper) return failResult('conflict', 'The paper account is working: there is nothing to reset.');
      let backupPath: string;
      try {
        backupPath = moveAside(paper.file, d.clock.now());
      } catch (err) {
        return failResult(
          'storage',
          `The damaged paper ledger ${paper.file} could not be moved aside: ${String(err)}`,
        );
      }
      const { paper: _gone, ...rest } = status;
      set(rest);
      await restart();
      const still = down();
      if (still) return failResult('storage', still.message);
      d.logger.info('paper account reset', { backupPath });
      return okResult({ backupPath });
    },
  };
}
