// Where a gateway's WebSocket feed is (gateway-behaviour §13), when its profile does not say: behind
// a TLS front end (https) the real gateway is reached at `wss://<host>/ws` (its nginx setup); on a
// plain http URL it is the feed server's own port, ws://<host>:8765. The key is never part of it.

/** Upstream's WEBSOCKET_PORT default. */
export const DEFAULT_FEED_PORT = 8765;

/** Why a feed URL is refused: only ws(s), and nothing in it that could carry a secret. */
export function feedUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'the feed URL is not a URL';
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') return 'the feed URL must start with ws:// or wss://';
  if (u.username || u.password || u.search) return 'the feed URL must carry no credentials or query';
  return undefined;
}

/** The feed URL of a gateway at `baseUrl`; undefined when the base URL is not http(s). */
export function deriveFeedUrl(baseUrl: string): string | undefined {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (u.protocol === 'https:') return `wss://${u.host}/ws`;
  if (u.protocol === 'http:') return `ws://${u.hostname}:${DEFAULT_FEED_PORT}`;
  return undefined;
}
