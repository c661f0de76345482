// The app:// protocol handler: serves the built renderer (out/renderer) and nothing else. Pure over an
// injected file reader, so path traversal, types and headers are tested without Electron.
import { resolve, sep } from 'node:path';
import { errorCode, errorMessage } from '../contract/index.js';
import type { Logger } from '../core/index.js';
import { mimeType } from '../core/mime-type.js';
import { APP_HOST, APP_SCHEME } from './app-url.js';
import { RENDERER_CSP } from './csp.js';

/** Headers every answer carries, errors included. */
export function securityHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': RENDERER_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-cache',
  };
}

export type ResolvedPath = { ok: true; path: string } | { ok: false; status: 400 | 403 | 404 };

/**
 * The file under `root` that an app:// URL names, or why there is none. Lexical: `..` segments, encoded
 * slashes and backslashes, NUL bytes and other hosts are refused before the file system is touched.
 */
export function resolveAppPath(root: string, url: string): ResolvedPath {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, status: 400 };
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return { ok: false, status: 404 };
  const raw = u.pathname === '/' || u.pathname === '' ? '/index.html' : u.pathname;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return { ok: false, status: 400 };
  }
  // An encoded separator or NUL would let a "segment" smuggle in a different path.
  if (decoded.includes('\0') || decoded.includes('\\')) return { ok: false, status: 400 };
  const segments = decoded.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return { ok: false, status: 403 };
  const base = resolve(root);
  const path = resolve(base, ...segments);
  if (!path.startsWith(base + sep)) return { ok: false, status: 403 };
  return { ok: true, path };
}

export interface AppProtocolOptions {
  /** The built renderer's directory. */
  root: string;
  readFile(path: string): Promise<Uint8Array>;
  logger: Pick<Logger, 'warn'>;
}

function answer(status: number, body: Uint8Array | string | null, type?: string): Response {
  const headers = new Headers(securityHeaders());
  if (type) headers.set('Content-Type', type);
  // A fresh copy typed over an ArrayBuffer: what Response's BodyInit accepts.
  const payload = body instanceof Uint8Array ? new Uint8Array(body) : body;
  return new Response(payload, { status, headers });
}

/** The handler for `protocol.handle(APP_SCHEME, …)`. Only GET and HEAD; never throws. */
export function createAppProtocolHandler(o: AppProtocolOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return answer(405, 'method not allowed', 'text/plain; charset=utf-8');
    const target = resolveAppPath(o.root, request.url);
    if (!target.ok) {
      if (target.status === 403) o.logger.warn('app protocol refused a path outside the bundle');
      return answer(target.status, null);
    }
    try {
      const data = await o.readFile(target.path);
      return answer(200, request.method === 'HEAD' ? null : data, mimeType(target.path));
    } catch (err) {
      const code = errorCode(err);
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return answer(404, null);
      o.logger.warn('app protocol could not read a bundle file', { error: errorMessage(err) });
      return answer(500, null);
    }
  };
}
