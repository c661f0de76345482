// Planted faults (STRESS_PLANT), stress runs only: they show that an invariant catches the bug it
// is there for. Nothing in src-main reads the variable; a suite passes these in through core ports,
// or, for a core in a process of its own, does the same to its data dir between a kill and a restart.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSeenStore, WATCHER_DB, type SeenStore } from '../../src-main/core/watcher/index.js';

/**
 * STRESS_PLANT=forget-seen: the watcher's store hands back an empty seen set whenever it is opened
 * (the baseline kept), as if it had forgotten what it had already reported: after a core restart,
 * every order in the book is news again.
 */
export function plantedSeenStore(path: string): SeenStore {
  const store = openSeenStore(path);
  return {
    ...store,
    load(profileId) {
      const state = store.load(profileId);
      return { ...state, orders: state.orders ? new Map() : undefined };
    },
  };
}

/**
 * STRESS_PLANT=forget-seen for a core in a process of its own: between a kill and the restart, its
 * watcher.db keeps the baseline and loses every order it had reported (as plantedSeenStore's load).
 */
export function forgetSeenOnDisk(dataDir: string): number {
  const db = new Database(join(dataDir, WATCHER_DB));
  try {
    return db.prepare('DELETE FROM seen_orders').run().changes;
  } finally {
    db.close();
  }
}
