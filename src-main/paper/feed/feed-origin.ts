// Which WebSocket upgrades the feed accepts, by their Origin header. Python's websocket-client (the
// official SDK's FeedAPI) sends `Origin: http://<the host:port it connects to>` by default, and the
// live server applies no Origin check, so that origin is the client itself, not a web page. A browser
// page always sends its own origin, which names another host or port; refused. A page served from a
// rebound DNS name (evil.example resolving to 127.0.0.1) would send a matching Host and Origin, so the
// own-origin match counts only where the Host is an IP literal or `localhost`, names no web page can
// serve from. With no Origin at all (ws, websockets, the core's own feed client) the upgrade is
// accepted.
import { isIP } from 'node:net';

/** The Host header's name without its port (IPv6 literals keep their brackets off). */
function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon >= 0 ? host.slice(0, colon) : host;
}

const notWebName = (name: string): boolean => isIP(name) !== 0 || name.toLowerCase() === 'localhost';

/** True when an upgrade with this Origin and Host may connect. */
export function originAllowed(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (host === undefined || host === '' || !notWebName(hostName(host))) return false;
  const o = origin.toLowerCase();
  const h = host.toLowerCase();
  return o === `http://${h}` || o === `https://${h}`;
}
