// Planted faults (STRESS_PLANT), stress runs only: they show that an invariant catches the bug it
// is there for. Nothing in src-main reads the variable; a suite passes these in through core ports.
import { openSeenStore, type SeenStore } from '../../src-main/core/watcher/index.js';

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
