// Deny-by-default guards for every web contents and the session: the page is a single bundle that never
// navigates, opens windows, embeds webviews or asks for permissions (notifications come from main).
// Written over the few Electron methods they use, so a test hands in fakes.
import type { Session, WebContents } from 'electron';
import type { Logger } from '../core/index.js';
import { isExternalLink } from './external-links.js';

export type GuardableContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;
export type GuardableSession = Pick<
  Session,
  'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'
>;

/** Only the origin goes to the log: enough to see what was tried, nothing of a query string. */
function originOf(url: unknown): string {
  if (typeof url !== 'string') return 'unknown';
  try {
    const u = new URL(url);
    return u.origin === 'null' ? `${u.protocol}` : u.origin;
  } catch {
    return 'unparsable';
  }
}

/**
 * `openExternal` (Electron's shell.openExternal) takes a new-window request for an address on the
 * external-links list to the system browser; every other one is only denied.
 */
export function guardContents(
  contents: GuardableContents,
  logger: Pick<Logger, 'warn'>,
  openExternal?: (url: string) => void,
): void {
  // Every event's first argument is an Electron Event carrying the target URL (details.url).
  const deny = (what: string) => (event: { preventDefault(): void; url?: string }) => {
    event.preventDefault();
    logger.warn(`${what} denied`, { origin: originOf(event.url) });
  };
  contents.on('will-navigate', deny('navigation'));
  contents.on('will-frame-navigate', deny('frame navigation'));
  contents.on('will-redirect', deny('redirect'));
  contents.on('will-attach-webview', deny('webview'));
  contents.setWindowOpenHandler(({ url }) => {
    if (openExternal && isExternalLink(url)) {
      openExternal(url);
      return { action: 'deny' };
    }
    logger.warn('new window denied', { origin: originOf(url) });
    return { action: 'deny' };
  });
}

export function guardSession(session: GuardableSession, logger: Pick<Logger, 'warn'>): void {
  session.setPermissionRequestHandler((_wc, permission, callback) => {
    logger.warn('permission request denied', { permission });
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
