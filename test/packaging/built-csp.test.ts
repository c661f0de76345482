// The Content-Security-Policy of the BUILT renderer (out/renderer, what ships), as the three places
// that serve it state it: the page's own <meta>, the app:// handler's header in Electron, and the
// browser-mode web host's header. Each policy is written out here in full so that any loosening of
// csp.ts, page-policy.ts or index.html fails this test. Needs `out/` (npm test builds it first).
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppProtocolHandler } from '../../src-main/desktop/app-protocol.js';
import { createMemoryLogger } from '../../src-main/core/secrets/index.js';
import { startWebHost, type WebHost } from '../../src-main/web/web-host.js';
import { createWsBridge } from '../../src-main/web/ws-bridge.js';

const BUILT = join(import.meta.dirname, '../../out/renderer');

/** Electron: no network at all from the page (the renderer talks to main over IPC only). */
const ELECTRON_HEADER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
  "connect-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** The same less frame-ancestors, which a <meta> cannot set. */
const META_CSP = ELECTRON_HEADER_CSP.replace("; frame-ancestors 'none'", '');
const webCspFor = (port: number) =>
  ELECTRON_HEADER_CSP.replace("connect-src 'none'", `connect-src ws://127.0.0.1:${port}/bridge`);

let dir: string;
let html: string;

beforeAll(() => {
  if (!existsSync(join(BUILT, 'index.html')))
    throw new Error('out/renderer is not built: run `npm run build` (npm test does) first');
  // A snapshot: a rebuild running elsewhere must not change the files under the test.
  dir = mkdtempSync(join(tmpdir(), 'built-csp-'));
  cpSync(BUILT, join(dir, 'renderer'), { recursive: true });
  html = readFileSync(join(dir, 'renderer/index.html'), 'utf8');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('built index.html', () => {
  it('carries exactly the Electron policy in its one <meta>', () => {
    const metas = [...html.matchAll(/http-equiv="Content-Security-Policy"\s+content="([^"]+)"/gi)];
    expect(metas.map((m) => m[1])).toEqual([META_CSP]);
  });

  it('loads only its own files: no inline script, no remote script, style or preload', () => {
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    const refs = [...html.matchAll(/\b(?:src|href)="([^"]*)"/gi)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(1);
    for (const r of refs) expect(r, r).toMatch(/^(\.\/assets\/[\w.-]+\.(js|css)|data:,)$/);
  });
});

describe('app:// handler over the build (Electron)', () => {
  it('answers every file with the exact header policy', async () => {
    const handler = createAppProtocolHandler({
      root: join(dir, 'renderer'),
      readFile: (p) => readFile(p),
      logger: { warn: () => undefined },
    });
    const index = await handler(new Request('app://bundle/'));
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toBe(ELECTRON_HEADER_CSP);
    expect(await index.text()).toBe(html);
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    const asset = await handler(new Request(`app://bundle/${script}`));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-security-policy')).toBe(ELECTRON_HEADER_CSP);
    const missing = await handler(new Request('app://bundle/nope.js'));
    expect(missing.headers.get('content-security-policy')).toBe(ELECTRON_HEADER_CSP);
  });
});

describe('web host over the build (browser mode)', () => {
  let host: WebHost;
  let cookie = '';
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: host.port, path, headers: { Host: `127.0.0.1:${host.port}`, ...headers } },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });

  beforeAll(async () => {
    const logger = createMemoryLogger();
    host = await startWebHost({
      bridge: createWsBridge({ logger }),
      rendererDir: join(dir, 'renderer'),
      port: 0,
      logger,
    });
    const token = new URL(host.url).searchParams.get('token');
    const exchanged = await get(`/?token=${token}`);
    cookie = String((exchanged.headers['set-cookie'] as string[])[0]).split(';')[0]!;
  });
  afterAll(() => host?.stop());

  it('opens connect-src to exactly its own bridge socket and nothing else', async () => {
    const page = await get('/', { Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(webCspFor(host.port));
    // The Electron <meta> is gone (it would block the socket on top of the header).
    expect(page.body).not.toMatch(/Content-Security-Policy/i);
    for (const path of ['/bridge.js', `/${/src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1]}`]) {
      const r = await get(path, { Cookie: cookie });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-security-policy'], path).toBe(webCspFor(host.port));
    }
  });

  it('a refusal before the session carries the same policy', async () => {
    const refused = await get('/');
    expect(refused.status).toBe(401);
    expect(refused.headers['content-security-policy']).toBe(webCspFor(host.port));
  });
});
