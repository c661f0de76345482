// Where a gateway profile's API key may go. A key is bound to the origin (scheme://host:port) of the
// base URL it was stored for: another origin is another gateway, which must be given the key anew. A
// plain http:// base URL to another computer sends the key unencrypted over the network: only with
// the profile's explicit consent ("send my key without TLS").

/** The words of the consent, as the settings form shows them. */
export const INSECURE_KEY_CONSENT = 'Send my API key without TLS (plain http:// to another computer)';

/** `scheme://host:port` of a URL, normalised (host in lower case, no default port); '' if not a URL. */
export function keyOriginOf(url: string): string {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : '';
  } catch {
    return '';
  }
}

/** This computer: localhost (and *.localhost), 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === '[::1]' || h === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Whether a base URL would carry the key unencrypted to another computer (http://, not loopback). */
export function keyNeedsTlsConsent(baseUrl: string): boolean {
  try {
    const u = new URL(baseUrl);
    return u.protocol === 'http:' && !isLoopbackHost(u.hostname);
  } catch {
    return false;
  }
}

/** Why the key is not sent to a plain http:// gateway on another computer. */
export function insecureKeyRefusal(baseUrl: string): string {
  return `${keyOriginOf(baseUrl) || baseUrl} is plain http:// to another computer: the API key would cross the network without TLS. Use https://, or tick "send my key without TLS" for this profile`;
}

/** Why a stored key is not sent: it was entered for another address. */
export function keyOriginRefusal(storedFor: string, baseUrl: string): string {
  return `the API key was entered for ${storedFor}, not ${keyOriginOf(baseUrl) || baseUrl}: enter the key again for this address`;
}

/**
 * Whether two URLs name the same computer: the same host name (any port, any scheme: the gateway's
 * feed is on its own port, upstream's 8765), or both this computer.
 */
function sameComputer(a: URL, b: URL): boolean {
  const host = (u: URL) => u.hostname.toLowerCase().replace(/\.$/, '');
  if (host(a) === host(b)) return true;
  return isLoopbackHost(host(a)) && isLoopbackHost(host(b));
}

/**
 * Why a profile's feed URL may not receive its API key, or undefined when it may. The feed
 * authenticates with the key the base URL's gateway was given: only on that gateway's own computer,
 * and over plain ws:// to another computer only with the same "send my key without TLS" consent as
 * a plain http:// base URL. A feed URL that is not ws(s) is the schema's refusal, not this one.
 */
export function feedKeyRefusal(
  baseUrl: string,
  feedUrl: string,
  allowInsecureKey: boolean | undefined,
): string | undefined {
  let base: URL;
  let feed: URL;
  try {
    base = new URL(baseUrl);
    feed = new URL(feedUrl);
  } catch {
    return undefined;
  }
  if (!sameComputer(base, feed))
    return `the feed URL's host ${feed.host} is another computer than the gateway's (${base.host}): the API key is not sent there. Use the gateway's own host for the feed, or leave the feed URL empty`;
  if (feed.protocol === 'ws:' && !isLoopbackHost(feed.hostname) && allowInsecureKey !== true)
    return `${feed.origin} is plain ws:// to another computer: the API key would cross the network without TLS. Use wss://, or tick "send my key without TLS" for this profile`;
  return undefined;
}
