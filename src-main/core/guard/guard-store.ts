// Each profile's guard counters and lock on disk (<dataDir>/guard/<profile>.json), written at each
// change so a restart cannot reset them (core/profile-files.ts). A file that cannot be read is kept
// aside and reported; the service then locks to be safe (guard-service.ts).
import { StoredGuard } from '../../contract/index.js';
import { createProfileFiles, type FileLoad } from '../profile-files.js';

export type GuardLoad = FileLoad<StoredGuard>;

export interface GuardStore {
  load(profileId: string): GuardLoad;
  /** Writes what `read` gives when the write runs; resolves once it is on disk. */
  save(profileId: string, read: () => StoredGuard): Promise<void>;
}

export function createGuardStore(dir: string, now: () => number = Date.now): GuardStore {
  return createProfileFiles(dir, StoredGuard, 'the guard file', now);
}
