// The one-time token in the printed URL and the session cookie it is exchanged for. The token works
// once; the cookie (HttpOnly, SameSite=Strict, random, held only in memory) is what every later page
// load and the WebSocket upgrade must carry.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface SessionGate {
  /** The token for the printed URL (one per host run). */
  readonly token: string;
  /** The cookie's name; per port, because browsers share 127.0.0.1 cookies across ports. */
  readonly cookieName: string;
  /**
   * Spends the token: the Set-Cookie header value on the first use of the right token, otherwise
   * undefined (wrong token, or already used).
   */
  exchange(token: string): string | undefined;
  /** True when a `Cookie` request header carries a session this gate issued. */
  admits(cookieHeader: string | undefined): boolean;
}

/** Equal-time comparison of secrets of any length (hashing makes the lengths equal). */
function sameSecret(a: string, b: string): boolean {
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(a), h(b));
}

/**
 * Every value of cookie `name` in a `Cookie` header, in order. Browsers share 127.0.0.1 cookies across
 * ports, so a page on another loopback port can plant one of the same name: there may be several.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  if (!header) return values;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

export function createSessionGate(
  port: number,
  random: (bytes: number) => Buffer = randomBytes,
): SessionGate {
  const token = random(32).toString('base64url');
  const cookieName = `orderdesk_session_${port}`;
  let session: string | undefined;
  return {
    token,
    cookieName,
    exchange(candidate) {
      if (session !== undefined || !sameSecret(candidate, token)) return undefined;
      session = random(32).toString('base64url');
      // No Max-Age: the cookie ends with the browser session, and the host forgets it on exit anyway.
      return `${cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/`;
    },
    admits(cookieHeader) {
      if (session === undefined) return false;
      // Any one valid value admits (a planted one ahead of it must not lock the desk out); every
      // value is compared, in equal time, whatever came before.
      let admitted = false;
      for (const value of cookieValues(cookieHeader, cookieName))
        admitted = sameSecret(value, session) || admitted;
      return admitted;
    },
  };
}
