// Each profile's brackets on disk (<dataDir>/brackets/<profile>.json), written atomically before
// every protective send, so a restart re-attaches them and knows which sends may have gone. Saves
// run one after another, each writing the state as it is when it runs: the file is never older than
// the send it was asked for. A file that cannot be read is kept aside and reported, never trusted.
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { StoredBrackets, type StoredBracket, type StoredGttBracket } from '../../contract/index.js';
import { writeFileAtomic } from '../settings/atomic-file.js';

export interface SavedBrackets {
  brackets: StoredBracket[];
  gtt: StoredGttBracket[];
}

export interface BracketLoad extends SavedBrackets {
  /** The file was there and could not be read: kept at this path, nothing re-attached from it. */
  damaged?: { keptAs: string; reason: string };
}

export interface BracketStore {
  load(profileId: string): BracketLoad;
  /** Writes what `read` gives when the save runs. */
  save(profileId: string, read: () => SavedBrackets): Promise<void>;
}

export function createBracketStore(dir: string, now: () => number = Date.now): BracketStore {
  const chains = new Map<string, Promise<void>>();
  const pathOf = (profileId: string) => join(dir, `${profileId}.json`);
  return {
    load(profileId) {
      const path = pathOf(profileId);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { brackets: [], gtt: [] };
        throw err;
      }
      let reason: string;
      try {
        const parsed = StoredBrackets.safeParse(JSON.parse(text));
        if (parsed.success) return { brackets: parsed.data.brackets, gtt: parsed.data.gtt };
        reason = parsed.error.issues[0]?.message ?? 'not the brackets file’s shape';
      } catch (err) {
        reason = `not JSON (${String(err)})`;
      }
      const keptAs = `${path}.damaged-${now()}`;
      renameSync(path, keptAs);
      return { brackets: [], gtt: [], damaged: { keptAs, reason } };
    },
    save(profileId, read) {
      const write = () =>
        writeFileAtomic(
          pathOf(profileId),
          JSON.stringify({ version: 1, ...read() } satisfies StoredBrackets),
        );
      const next = (chains.get(profileId) ?? Promise.resolve()).then(write, write);
      chains.set(profileId, next);
      return next;
    },
  };
}
