// The active profile's WebSocket feed, tied to its watcher and market data: order_update goes to the
// watcher (alerts at once, deduped with its polls), ticks to market data, and the feed's state sets
// both to "safety-net polling" (live) or "polling as usual" (anything else). One link per session;
// closed when the profile switches, so a feed never outlives its profile. `onFeed` tells whether the
// desk streams or polls, and why. The key goes to a gateway profile's feed only on the gateway's own
// computer, and over plain ws:// elsewhere only with the profile's consent (feedKeyRefusal).
import { errorMessage, feedKeyRefusal, type Profile, type SessionFeed } from '../../contract/index.js';
import {
  createFeedClient,
  deriveFeedUrl,
  feedUrlProblem,
  type Clock,
  type FeedClient,
} from '../../gateway/index.js';
import type { Logger } from '../ports.js';
import type { Watcher } from '../watcher/index.js';
import type { MarketFeedPort } from '../market/index.js';

export interface FeedLink {
  readonly url: string;
  client: FeedClient;
  close(): void;
}

/**
 * The feed URL a profile offers: the profile's own `feedUrl`, else the embedded paper gateway's,
 * else one derived from the base URL. Undefined: no feed (polling only).
 */
export function feedUrlFor(profile: Profile, embeddedFeedUrl: string | undefined): string | undefined {
  if (profile.feedUrl) return profile.feedUrl;
  if (profile.kind === 'paper') return embeddedFeedUrl;
  return profile.baseUrl ? deriveFeedUrl(profile.baseUrl) : undefined;
}

/** Why a profile's feed is not opened (words for the desk), or undefined when it may be. */
export function feedRefusal(profile: Profile, url: string | undefined): string | undefined {
  if (!url) return 'this profile has no feed: the desk polls the gateway';
  if (profile.kind === 'paper') return undefined;
  const refused = feedKeyRefusal(profile.baseUrl, url, profile.allowInsecureKey);
  return refused && `the feed is not used: ${refused}`;
}

export interface FeedLinkOptions {
  profileId: string;
  url: string;
  /** Streaming or polling, at each change of the feed's state. */
  onFeed?: (feed: SessionFeed) => void;
  getApiKey: () => Promise<string | undefined>;
  clock: Clock;
  logger: Logger;
  watcher: Pick<Watcher, 'applyOrderUpdate' | 'setFeedLive'>;
  market?: MarketFeedPort;
  /** Tests: reconnect sooner. */
  retryBaseMs?: number;
}

export function openFeedLink(o: FeedLinkOptions): FeedLink | undefined {
  const polling = (reason: string) => o.onFeed?.({ state: 'polling', url: o.url, reason });
  const problem = feedUrlProblem(o.url);
  if (problem) {
    o.logger.warn('the profile feed URL is not used', { profileId: o.profileId, reason: problem });
    polling(`the feed is not used: ${problem}`);
    return undefined;
  }
  let client: FeedClient;
  try {
    client = createFeedClient({
      url: o.url,
      getApiKey: o.getApiKey,
      clock: o.clock,
      ...(o.retryBaseMs !== undefined ? { retryBaseMs: o.retryBaseMs } : {}),
    });
  } catch (err) {
    o.logger.warn('the profile feed is not used', { profileId: o.profileId, reason: errorMessage(err) });
    polling(`the feed is not used: ${errorMessage(err)}`);
    return undefined;
  }
  polling('the feed is connecting');
  const off = [
    client.onOrderUpdate((u) => o.watcher.applyOrderUpdate(u)),
    client.onStatus((s) => {
      const live = s.state === 'live';
      o.watcher.setFeedLive(live);
      o.market?.feedStatus(live);
      if (live) o.onFeed?.({ state: 'streaming', url: o.url });
      else
        polling(
          s.state === 'connecting'
            ? 'the feed is connecting'
            : `the feed is down${s.reason ? ` (${s.reason})` : ''}; polling until it is back`,
        );
      if (s.state === 'live') o.logger.info('gateway feed live', { profileId: o.profileId, url: o.url });
      else if (s.state === 'down')
        o.logger.debug('gateway feed down; polling', { profileId: o.profileId, reason: s.reason ?? '' });
    }),
  ];
  if (o.market) {
    const market = o.market;
    off.push(client.onMarketData((t) => market.feedTick(t)));
    market.attachFeed((symbols) => client.setSymbols(symbols));
  }
  return {
    url: o.url,
    client,
    close() {
      for (const f of off) f();
      client.close();
      o.watcher.setFeedLive(false);
      o.market?.detachFeed();
    },
  };
}
