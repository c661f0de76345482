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
