// The market subscriptions one page holds, as its host sees its answered calls. A page that goes away
// (a closed tab, a reload, a crashed renderer) cannot unwatch them itself, and the core keeps at most
// MAX_SUBSCRIPTIONS: its host releases them for it.
import type { IpcResult, MarketWatchResult } from '../../contract/index.js';

export interface PageWatches {
  /** Sees an answered call of the page: a watch is held, an unwatch lets it go. */
  noted(channel: string, result: IpcResult<unknown>): void;
  /** The page is gone: each subscription it still held is unwatched through `unwatch`. */
  release(unwatch: (id: string) => void): void;
}

export function createPageWatches(): PageWatches {
  const held = new Set<string>();
  let gone: ((id: string) => void) | undefined;
  return {
    noted(channel, result) {
      if (!result.ok || (channel !== 'market.watch' && channel !== 'market.unwatch')) return;
      // Both answers name the subscription (MarketWatchResult, MarketUnwatchResult).
      const { id } = result.value as Pick<MarketWatchResult, 'id'>;
      if (channel === 'market.unwatch') held.delete(id);
      // Answered after its page went away: nobody is left to unwatch it.
      else if (gone) gone(id);
      else held.add(id);
    },
    release(unwatch) {
      gone = unwatch;
      for (const id of held) unwatch(id);
      held.clear();
    },
  };
}
