// The renderer's origin: a custom standard+secure scheme, so the page never runs from file:// (which
// would give it every local file as same-origin) and its URL is checkable in one comparison.
export const APP_SCHEME = 'app';
export const APP_HOST = 'bundle';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** True for URLs of the app's own bundle, and nothing else (not app://other, not app://bundle.evil). */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && !u.username && !u.password;
  } catch {
    return false;
  }
}

/**
 * How app:// is registered (before `ready`): standard (real origins, relative URLs resolve) and secure
 * (a secure context, as https). No CSP bypass, no service workers, no fetch/CORS from other origins.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  bypassCSP: false,
  allowServiceWorkers: false,
  supportFetchAPI: true,
  corsEnabled: false,
  stream: false,
  codeCache: true,
} as const;
