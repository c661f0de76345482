// The active session's WebSocket feed: opened for the profile it belongs to (the previous profile's
// is closed first), reopened when its key changes, closed with the core. Where the profile offers
// none, or may not be sent its key, the desk polls and is told why.
import type { Profile } from '../../contract/index.js';
import type { Clock } from '../../gateway/index.js';
import { feedRefusal, feedUrlFor, openFeedLink, type FeedLink } from '../feed/feed-link.js';
import type { GatewayMode } from '../gateway-mode.js';
import type { MarketWatch } from '../market/index.js';
import type { Logger } from '../ports.js';
import type { Profiles } from '../profiles/index.js';
import { gatewayKeySource, type SecretStore } from '../secrets/index.js';
import type { Watcher } from '../watcher/index.js';
import type { PaperHost } from './paper-host.js';

export interface SessionFeed {
  open(profile: Profile, watcher: Watcher): void;
  close(): void;
}

export function createSessionFeed(d: {
  /** false: no feed at all (a one-shot CLI run). */
  enabled: boolean;
  retryBaseMs?: number | undefined;
  paper: PaperHost;
  secrets: SecretStore;
  profiles: Profiles;
  gatewayMode: GatewayMode;
  market: MarketWatch;
  clock: Clock;
  logger: Logger;
}): SessionFeed {
  let feed: FeedLink | undefined;
  function close(): void {
    feed?.close();
    feed = undefined;
  }
  return {
    open(profile, watcher) {
      close();
      const url = d.enabled ? feedUrlFor(profile, d.paper.current()?.feedUrl) : undefined;
      const refused = feedRefusal(profile, url);
      if (refused || !url) {
        d.gatewayMode.feed(profile.id, { state: 'polling', ...(url ? { url } : {}), reason: refused ?? '' });
        return;
      }
      const feedKey = gatewayKeySource(
        d.secrets,
        () => d.profiles.get(profile.id) ?? profile,
        profile.baseUrl,
      );
      feed = openFeedLink({
        profileId: profile.id,
        url,
        onFeed: (f) => d.gatewayMode.feed(profile.id, f),
        getApiKey: async () => {
          const key = await feedKey();
          return typeof key === 'string' ? key : undefined;
        },
        clock: d.clock,
        logger: d.logger,
        watcher,
        market: d.market,
        ...(d.retryBaseMs !== undefined ? { retryBaseMs: d.retryBaseMs } : {}),
      });
    },
    close,
  };
}
