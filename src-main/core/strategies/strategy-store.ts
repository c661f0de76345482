// Each profile's strategies on disk (<dataDir>/strategies/<profile>.json), written before every
// send (core/profile-files.ts: atomic, coalesced, never older than the save asked for). A file that
// cannot be read is kept aside and reported, never trusted.
import { StoredStrategies, type StoredStrategy } from '../../contract/index.js';
import { createProfileFiles } from '../profile-files.js';

export interface StrategyLoad {
  strategies: StoredStrategy[];
  /** The file was there and could not be read: kept at this path. */
  damaged?: { keptAs: string; reason: string };
}

export interface StrategyStore {
  load(profileId: string): StrategyLoad;
  /** Writes what `read` gives when the save runs. */
  save(profileId: string, read: () => StoredStrategy[]): Promise<void>;
}

export function createStrategyStore(dir: string, now: () => number = Date.now): StrategyStore {
  const files = createProfileFiles(dir, StoredStrategies, 'the strategies file', now);
  return {
    load(profileId) {
      const r = files.load(profileId);
      if (r.kind === 'read') return { strategies: r.value.strategies };
      if (r.kind === 'none') return { strategies: [] };
      return { strategies: [], damaged: { keptAs: r.keptAs, reason: r.reason } };
    },
    save: (profileId, read) =>
      files.save(profileId, () => ({ version: 1 as const, strategies: structuredClone(read()) })),
  };
}

/** A strategy as a restart finds it: a send that may have gone is in doubt, never sent again. */
export function restored(s: StoredStrategy): StoredStrategy {
  const legs = s.legs.map((l) =>
    l.state === 'sending'
      ? {
          ...l,
          state: 'unknown' as const,
          reason: 'OrderDesk stopped while this leg was being sent: the book will tell if it went',
        }
      : l,
  );
  // A leg not sent in a strategy that was sending (or rolling) is the trader's to resume.
  const unsent = legs.some((l) => l.state !== 'sent' && l.state !== 'closed');
  const state = s.state === 'sending' || (s.state === 'open' && unsent) ? 'partial' : s.state;
  return { ...s, legs, state };
}
