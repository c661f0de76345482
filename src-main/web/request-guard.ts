// Who may talk to the web host: requests must name the loopback address it serves in `Host` (a DNS
// rebinding page sends its own host name), and a WebSocket upgrade must also come from the host's
// own page (`Origin`) with the session cookie.

export interface HostAddress {
  /** The loopback address the host is bound to, e.g. 127.0.0.1. */
  host: string;
  port: number;
}

export type RefusalReason = 'foreign_host' | 'foreign_origin' | 'no_session';

export interface Refusal {
  reason: RefusalReason;
  status: 403 | 401 | 421;
  message: string;
}

/** `127.0.0.1:7740`, as a browser writes it in `Host` (the port is left out only for 80). */
export function hostHeaderOf(a: HostAddress): string {
  const host = a.host.includes(':') ? `[${a.host}]` : a.host;
  return a.port === 80 ? host : `${host}:${a.port}`;
}

export function originOf(a: HostAddress): string {
  return `http://${hostHeaderOf(a)}`;
}

/** Exact match (case-insensitive, as host names are): no other name for the same address passes. */
export function checkHost(header: string | undefined, a: HostAddress): Refusal | undefined {
  if (header !== undefined && header.toLowerCase() === hostHeaderOf(a).toLowerCase()) return undefined;
  return {
    reason: 'foreign_host',
    status: 421,
    message: `This host only answers requests for ${hostHeaderOf(a)}.`,
  };
}

export function checkOrigin(header: string | undefined, a: HostAddress): Refusal | undefined {
  if (header !== undefined && header.toLowerCase() === originOf(a).toLowerCase()) return undefined;
  return {
    reason: 'foreign_origin',
    status: 403,
    message: 'The bridge only accepts connections from the page this host serves.',
  };
}

/** The upgrade checks in order: Host, Origin (a missing Origin is refused too), session cookie. */
export function checkUpgrade(
  headers: { host?: string | undefined; origin?: string | undefined; cookie?: string | undefined },
  a: HostAddress,
  admits: (cookieHeader: string | undefined) => boolean,
): Refusal | undefined {
  return (
    checkHost(headers.host, a) ??
    checkOrigin(headers.origin, a) ??
    (admits(headers.cookie)
      ? undefined
      : {
          reason: 'no_session',
          status: 401,
          message: 'No session: open the link that npm run web printed.',
        })
  );
}

/**
 * The path and query of an origin-form request target (`/path?query`); undefined for anything else
 * (`//host/…`, `/\\…`, `*`, absolute URLs), which the host answers 400 rather than guess at.
 */
export function readTarget(raw: string | undefined): URL | undefined {
  if (raw === undefined || !raw.startsWith('/') || raw.startsWith('//')) return undefined;
  try {
    const url = new URL(raw, 'http://target.invalid');
    // A backslash counts as a slash: `/\\evil` would name another host.
    return url.host === 'target.invalid' ? url : undefined;
  } catch {
    return undefined;
  }
}
