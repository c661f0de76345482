// The app:// handler over a real directory: it serves the bundle with its type and the CSP header,
// and nothing outside it, however the path is spelled.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppProtocolHandler, resolveAppPath } from '../../../src-main/desktop/app-protocol.js';
import { RENDERER_CSP } from '../../../src-main/desktop/csp.js';

let dir: string;
let root: string;
const warnings: string[] = [];
let handler: (r: Request) => Promise<Response>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'od-app-protocol-'));
  root = join(dir, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>OrderDesk</title>');
  writeFileSync(join(root, 'assets', 'index.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'index.css'), 'body{}');
  writeFileSync(join(root, 'assets', 'font.woff2'), 'x');
  // Siblings of the bundle that must never be served.
  writeFileSync(join(dir, 'secret.txt'), 'api key');
  mkdirSync(join(dir, 'renderer-evil'));
  writeFileSync(join(dir, 'renderer-evil', 'x.js'), 'evil');
  handler = createAppProtocolHandler({
    root,
    readFile: (p) => readFile(p),
    logger: { warn: (m) => warnings.push(m) },
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => handler(new Request(url, { method }));

describe('app:// handler', () => {
  it('serves index.html for the root and files with their types', async () => {
    const index = await get('app://bundle/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await index.text()).toContain('<title>OrderDesk</title>');
    const js = await get('app://bundle/assets/index.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('console.log(1)');
    expect((await get('app://bundle/assets/index.css')).headers.get('content-type')).toBe(
      'text/css; charset=utf-8',
    );
    expect((await get('app://bundle/assets/font.woff2')).headers.get('content-type')).toBe('font/woff2');
  });

  it('sends the CSP and nosniff on every answer, errors included', async () => {
    for (const url of ['app://bundle/index.html', 'app://bundle/missing.js', 'app://bundle/../secret.txt']) {
      const r = await get(url);
      expect(r.headers.get('content-security-policy'), url).toBe(RENDERER_CSP);
      expect(r.headers.get('x-content-type-options'), url).toBe('nosniff');
    }
    expect(RENDERER_CSP).toContain("connect-src 'none'");
    expect(RENDERER_CSP).toContain("script-src 'self'");
    expect(RENDERER_CSP).toContain("frame-ancestors 'none'");
    expect(RENDERER_CSP).not.toContain('unsafe');
  });

  it('never serves a file outside the bundle, however the path is spelled', async () => {
    for (const url of [
      'app://bundle/../secret.txt',
      'app://bundle/%2e%2e/secret.txt',
      'app://bundle/assets/%2E%2E/%2e%2e/secret.txt',
      'app://bundle/assets%2F..%2F..%2Fsecret.txt',
      'app://bundle/..%5Csecret.txt',
      'app://bundle/%5C..%5Csecret.txt',
      'app://bundle/index.html%00.js',
      'app://bundle/..%2Frenderer-evil/x.js',
      'app://bundle/%252e%252e/secret.txt',
      'app://bundle/%E0%A4%A',
    ]) {
      const r = await get(url);
      expect(r.status, url).toBeGreaterThanOrEqual(400);
      const body = await r.text();
      expect(body, url).not.toContain('api key');
      expect(body, url).not.toContain('evil');
    }
  });

  it('answers only the bundle host', async () => {
    expect((await get('app://other/index.html')).status).toBe(404);
  });

  it('answers 404 for a missing file or a directory, 405 for other methods, HEAD without a body', async () => {
    expect((await get('app://bundle/nope.js')).status).toBe(404);
    expect((await get('app://bundle/assets')).status).toBe(404);
    expect((await get('app://bundle/index.html', 'POST')).status).toBe(405);
    const head = await get('app://bundle/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers 500 (and logs) when the file cannot be read, never throws', async () => {
    warnings.length = 0;
    const broken = createAppProtocolHandler({
      root,
      readFile: () =>
        Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })),
      logger: { warn: (m) => warnings.push(m) },
    });
    const r = await broken(new Request('app://bundle/index.html'));
    expect(r.status).toBe(500);
    expect(warnings).toEqual(['app protocol could not read a bundle file']);
  });
});

describe('resolveAppPath', () => {
  it('maps URLs into the root and refuses traversal before touching the disk', () => {
    expect(resolveAppPath('/r', 'app://bundle/a/b.js')).toEqual({ ok: true, path: '/r/a/b.js' });
    expect(resolveAppPath('/r', 'app://bundle/a/./b.js')).toEqual({ ok: true, path: '/r/a/b.js' });
    expect(resolveAppPath('/r', 'app://bundle/a%2F..%2F..%2Fx')).toEqual({ ok: false, status: 403 });
    expect(resolveAppPath('/r', 'app://bundle/a%5Cb')).toEqual({ ok: false, status: 400 });
    expect(resolveAppPath('/r', 'app://bundle/a%00b')).toEqual({ ok: false, status: 400 });
  });
});

describe('index.html', () => {
  it("repeats the header's CSP in its <meta> (all but frame-ancestors, which a <meta> cannot set)", () => {
    const html = readFileSync(join(import.meta.dirname, '../../../src-renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    const header = RENDERER_CSP.split('; ').filter((d) => !d.startsWith('frame-ancestors'));
    expect(meta?.split('; ')).toEqual(header);
  });
});
