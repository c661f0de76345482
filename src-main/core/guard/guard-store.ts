// Each profile's guard counters and lock on disk (<dataDir>/guard/<profile>.json), written atomically
// at each change so a restart cannot reset them. Writes are coalesced: at most one waits behind the
// one running, and it writes the state as it is when it runs. A file that cannot be read is kept
// aside and reported; the service then locks to be safe (guard-service.ts).
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { StoredGuard } from '../../contract/index.js';
import { writeFileAtomic } from '../settings/atomic-file.js';

export type GuardLoad =
  | { kind: 'none' }
  | { kind: 'read'; stored: StoredGuard }
  /** The file was there and could not be read: kept at `keptAs`. */
  | { kind: 'damaged'; keptAs: string; reason: string };

export interface GuardStore {
  load(profileId: string): GuardLoad;
  /** Writes what `read` gives when the write runs; resolves once it is on disk. */
  save(profileId: string, read: () => StoredGuard): Promise<void>;
}

export function createGuardStore(dir: string, now: () => number = Date.now): GuardStore {
  const pathOf = (profileId: string) => join(dir, `${profileId}.json`);
  const queues = new Map<string, { tail: Promise<unknown>; waiting?: Promise<void> }>();
  return {
    load(profileId) {
      const path = pathOf(profileId);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
        throw err;
      }
      let reason: string;
      try {
        const parsed = StoredGuard.safeParse(JSON.parse(text));
        if (parsed.success) return { kind: 'read', stored: parsed.data };
        reason = parsed.error.issues[0]?.message ?? 'not the guard file’s shape';
      } catch (err) {
        reason = `not JSON (${String(err)})`;
      }
      const keptAs = `${path}.damaged-${now()}`;
      renameSync(path, keptAs);
      return { kind: 'damaged', keptAs, reason };
    },
    save(profileId, read) {
      let q = queues.get(profileId);
      if (!q) queues.set(profileId, (q = { tail: Promise.resolve() }));
      // A write not started yet writes the state as it is when it starts: it serves this save too.
      if (q.waiting) return q.waiting;
      const queue = q;
      const write = () => {
        queue.waiting = undefined;
        return writeFileAtomic(pathOf(profileId), JSON.stringify(read()));
      };
      const run = queue.tail.then(write);
      queue.waiting = run;
      queue.tail = run.catch(() => undefined);
      return run;
    },
  };
}
