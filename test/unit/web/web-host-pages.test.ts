// The web host in-process over real HTTP and WebSocket, bound to a fake core: the token exchange,
// what is served to whom, and start-up refusals.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startWebHost, WebHostError } from '../../../src-main/web/web-host.js';
import { createWsBridge } from '../../../src-main/web/ws-bridge.js';
import {
  bridge,
  cookie,
  dir,
  get,
  host,
  keepSession,
  logger,
  rendererDir,
  useWebHost,
} from './web-host-fixture.js';

useWebHost({ signedIn: false });

describe('web host: pages', () => {
  it('prints a loopback URL with a token, and serves nothing without the session', async () => {
    expect(host.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/\\?token=[\\w-]{43}$`));
    for (const path of ['/', '/index.html', '/bridge.js', '/assets/app.js']) {
      const r = await get(host.port, path);
      expect(r.status, path).toBe(401);
      expect(r.body).not.toContain('<script');
    }
  });

  it('the token is exchanged for the cookie and a redirect to the clean URL, once', async () => {
    const first = await get(host.port, `/?token=${new URL(host.url).searchParams.get('token')}`);
    expect(first.status).toBe(303);
    expect(first.headers['location']).toBe('/');
    const setCookie = first.headers['set-cookie']?.[0] ?? '';
    expect(setCookie).toMatch(/HttpOnly; SameSite=Strict; Path=\//);
    expect(first.headers['referrer-policy']).toBe('no-referrer');
    keepSession(setCookie.split(';')[0]!);

    const again = await get(host.port, `/?token=${new URL(host.url).searchParams.get('token')}`);
    expect(again.status).toBe(403);
    // With the session already held, a reload of the link just goes home.
    expect((await get(host.port, `/?token=anything`, { Cookie: cookie })).status).toBe(303);
  });

  it('with the session: index.html rewritten for browser mode, the CSP header, the bridge script', async () => {
    const page = await get(host.port, '/', { Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain(
      `connect-src ws://127.0.0.1:${host.port}/bridge;`,
    );
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.body).toContain('<script src="/bridge.js"></script>');
    expect(page.body).not.toContain('Content-Security-Policy');
    const script = await get(host.port, '/bridge.js', { Cookie: cookie });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain("Object.defineProperty(win, 'bridge'");
    expect((await get(host.port, '/assets/app.js', { Cookie: cookie })).body).toBe('console.log(1)');
  });

  it('only files of the build: no traversal, no listing, GET and HEAD only, right Host only', async () => {
    for (const path of ['/../outside.txt', '/%2e%2e/outside.txt', '/assets/', '/assets/../../outside.txt'])
      expect((await get(host.port, path, { Cookie: cookie })).status, path).toBe(404);
    expect((await get(host.port, '/', { Cookie: cookie }, 'POST')).status).toBe(405);
    expect((await get(host.port, '/', { Cookie: cookie }, 'HEAD')).status).toBe(200);
    const rebound = await get(host.port, '/', { Cookie: cookie, Host: `evil.example:${host.port}` });
    expect(rebound.status).toBe(421);
  });
});

describe('web host: start-up refusals', () => {
  it('a busy port names the port', async () => {
    const other = createWsBridge({ logger });
    await expect(startWebHost({ bridge: other, rendererDir, port: host.port, logger })).rejects.toMatchObject(
      {
        kind: 'port_in_use',
        message: `Port ${host.port} on 127.0.0.1 is already in use; pass --port with another port (or --port 0 for any free one).`,
      },
    );
    await other.close();
  });

  it('never binds beyond loopback, and needs a built renderer', async () => {
    await expect(
      startWebHost({ bridge, rendererDir, port: 0, host: '0.0.0.0', logger }),
    ).rejects.toBeInstanceOf(WebHostError);
    await expect(startWebHost({ bridge, rendererDir: join(dir, 'none'), port: 0, logger })).rejects.toThrow(
      /no built renderer/,
    );
  });
});
