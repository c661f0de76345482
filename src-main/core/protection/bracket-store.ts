// Each profile's brackets on disk (<dataDir>/brackets/<profile>.json), written before every
// protective send, so a restart re-attaches them and knows which sends may have gone
// (core/profile-files.ts: atomic, coalesced, never older than the save asked for). A file that cannot
// be read is kept aside and reported, never trusted.
import { StoredBrackets, type StoredBracket, type StoredGttBracket } from '../../contract/index.js';
import { createProfileFiles } from '../profile-files.js';

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
  const files = createProfileFiles(dir, StoredBrackets, 'the brackets file', now);
  return {
    load(profileId) {
      const r = files.load(profileId);
      if (r.kind === 'read') return { brackets: r.value.brackets, gtt: r.value.gtt };
      if (r.kind === 'none') return { brackets: [], gtt: [] };
      return { brackets: [], gtt: [], damaged: { keptAs: r.keptAs, reason: r.reason } };
    },
    save: (profileId, read) => files.save(profileId, () => ({ version: 1, ...read() })),
  };
}
