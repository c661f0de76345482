// The page as browser mode serves it: the Electron build's index.html keeps its meta CSP with
// `connect-src 'none'`; the web host drops that meta (a meta CSP would still apply on top of the
// header and block the WebSocket), sends its own CSP header that allows exactly the bridge's socket,
// and loads the bridge script (same origin) before the renderer's module.
import { BRIDGE_PATH } from '../contract/index.js';
import { hostHeaderOf, type HostAddress } from './request-guard.js';

export const BRIDGE_SCRIPT_PATH = '/bridge.js';

/** The Electron CSP with one change: the page may open a WebSocket to this host, nothing else. */
export function webCsp(address: HostAddress): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ws://${hostHeaderOf(address)}${BRIDGE_PATH}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const META_CSP = /<meta\s+http-equiv=["']Content-Security-Policy["'][^>]*>\s*/gi;

export class PagePolicyError extends Error {
  override name = 'PagePolicyError';
}

/**
 * index.html for browser mode. Throws when the page does not look like the renderer build (no
 * `<head>`, or a CSP meta left that the pattern missed): serving it would fail in the browser.
 */
export function webIndexHtml(html: string): string {
  const withoutMeta = html.replace(META_CSP, '');
  if (/Content-Security-Policy/i.test(withoutMeta))
    throw new PagePolicyError('index.html has a Content-Security-Policy the web host cannot replace');
  const head = /<head[^>]*>/i.exec(withoutMeta);
  if (!head) throw new PagePolicyError('index.html has no <head>');
  const at = head.index + head[0].length;
  // A classic script runs as it is parsed, so window.bridge exists before any module script runs.
  return `${withoutMeta.slice(0, at)}\n    <script src="${BRIDGE_SCRIPT_PATH}"></script>${withoutMeta.slice(at)}`;
}
