// One JSON file per profile under a directory (<dataDir>/brackets, <dataDir>/guard), each read
// against its schema and written atomically. Saves are coalesced: at most one waits behind the one
// running, and it writes the state as it is when it runs, so the file is never older than the save
// that was asked for. A file that cannot be read is kept aside (`….damaged-<ms>`) and reported,
// never trusted.
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { writeFileAtomic } from './settings/atomic-file.js';

export type FileLoad<T> =
  | { kind: 'none' }
  | { kind: 'read'; value: T }
  /** The file was there and could not be read: kept at `keptAs`. */
  | { kind: 'damaged'; keptAs: string; reason: string };

export interface ProfileFiles<T> {
  load(profileId: string): FileLoad<T>;
  /** Writes what `read` gives when the write runs; resolves once it is on disk. */
  save(profileId: string, read: () => T): Promise<void>;
}

export function createProfileFiles<S extends z.ZodType>(
  dir: string,
  schema: S,
  /** What the file is, for the reason a damaged one gives ("the brackets file"). */
  what: string,
  now: () => number = Date.now,
): ProfileFiles<z.output<S>> {
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
        const parsed = schema.safeParse(JSON.parse(text));
        if (parsed.success) return { kind: 'read', value: parsed.data };
        reason = parsed.error.issues[0]?.message ?? `not ${what}’s shape`;
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
