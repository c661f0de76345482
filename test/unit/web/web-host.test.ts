// The web host in-process over real HTTP and WebSocket, bound to a fake core: the token exchange,
// what is served to whom, the upgrade checks, and the bridge's calls, events and limits.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  BRIDGE_FRAME_MAX_BYTES,
  BridgeHostFrame,
  type EventName,
  type EventPayload,
  type IpcResult,
} from '../../../src-main/contract/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import { startWebHost, WebHostError, type WebHost } from '../../../src-main/web/web-host.js';
import { BRIDGE_MAX_IN_FLIGHT, createWsBridge, type BridgeTarget } from '../../../src-main/web/ws-bridge.js';

type AnyListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

/** A core stand-in: records calls; `hold` keeps answers back until released. */
function fakeCore() {
  const calls: { channel: string; input: unknown }[] = [];
  const listeners = new Set<AnyListener>();
  let held: (() => void)[] | undefined;
  let concurrent = 0;
  let maxConcurrent = 0;
  const target: BridgeTarget = {
    router: {
      async invoke(channel: string, input?: unknown): Promise<IpcResult<unknown>> {
        calls.push({ channel, input });
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        try {
          if (held) await new Promise<void>((r) => held!.push(r));
          if (channel === 'boom') throw new Error('secret detail');
          // A value JSON cannot carry: the reply must still go out (as an error), the host must live.
          if (channel === 'bigint') return { ok: true, value: { n: 1n } };
          if (channel === 'market.watch') return { ok: true, value: { id: `w${calls.length}` } };
          if (channel === 'market.unwatch' || channel === 'watcher.setVisibility')
            return { ok: true, value: input };
          if (channel !== 'settings.get')
            return { ok: false, error: { kind: 'invalid_input', message: `unknown channel "${channel}"` } };
          return { ok: true, value: { echo: input ?? null } };
        } finally {
          concurrent--;
        }
      },
    },
    events: {
      onAny(l) {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    },
  };
  return {
    target,
    calls,
    emit<E extends EventName>(name: E, payload: EventPayload<E>) {
      for (const l of listeners) l(name, payload);
    },
    hold() {
      held = [];
    },
    release() {
      const h = held ?? [];
      held = undefined;
      for (const r of h) r();
    },
    maxConcurrent: () => maxConcurrent,
  };
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const dir = mkdtempSync(join(tmpdir(), 'web-host-'));
const rendererDir = join(dir, 'renderer');
const core = fakeCore();
const logger = createMemoryLogger();
const bridge = createWsBridge({ logger });
let host: WebHost;
let cookie = '';

beforeAll(async () => {
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  copyFileSync(new URL('../../../src-renderer/index.html', import.meta.url), join(rendererDir, 'index.html'));
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'outside.txt'), 'not served');
  bridge.bind(core.target);
  host = await startWebHost({ bridge, rendererDir, port: 0, logger });
});

afterAll(async () => {
  await host?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function connect(headers: Record<string, string> = { Cookie: cookie, Origin: host.origin }) {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge`, { headers });
  const frames: BridgeHostFrame[] = [];
  ws.on('message', (d) => frames.push(BridgeHostFrame.parse(JSON.parse(String(d)))));
  const opened = new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  const replyTo = async (id: number | null, count = 1): Promise<BridgeHostFrame[]> => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const got = frames.filter((f) => f.type === 'reply' && f.id === id);
      if (got.length >= count) return got;
      if (Date.now() > deadline) throw new Error(`no reply to ${id}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { ws, frames, opened, replyTo };
}

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
    cookie = setCookie.split(';')[0]!;

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

describe('web host: the bridge socket', () => {
  async function refusal(headers: Record<string, string>, path = '/bridge'): Promise<number> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${host.port}${path}`, { headers });
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.on('open', () => reject(new Error('opened')));
      ws.on('error', reject);
    });
  }

  it('refuses no cookie (401), a foreign or missing Origin (403), a foreign Host (421), another path (404)', async () => {
    expect(await refusal({ Origin: host.origin })).toBe(401);
    expect(await refusal({ Origin: host.origin, Cookie: 'orderdesk_session_1=x' })).toBe(401);
    expect(await refusal({ Cookie: cookie, Origin: 'http://evil.example' })).toBe(403);
    expect(await refusal({ Cookie: cookie })).toBe(403);
    expect(await refusal({ Cookie: cookie, Origin: host.origin, Host: `localhost:${host.port}` })).toBe(421);
    expect(await refusal({ Cookie: cookie, Origin: host.origin }, '/other')).toBe(404);
    expect(logger.entries.filter((e) => e.message === 'bridge connection refused').length).toBeGreaterThan(0);
  });

  it("a cookie of the session's name planted ahead of the real one does not keep the page out", async () => {
    const c = connect({ Cookie: `orderdesk_session_${host.port}=planted; ${cookie}`, Origin: host.origin });
    await c.opened;
    c.ws.close();
    expect(
      (await get(host.port, '/', { Cookie: `orderdesk_session_${host.port}=x; ${cookie}` })).status,
    ).toBe(200);
  });

  it('a call reaches the router with its input and the result comes back with its id', async () => {
    const c = connect();
    await c.opened;
    c.ws.send(JSON.stringify({ id: 41, channel: 'settings.get', input: { a: 1 } }));
    expect(await c.replyTo(41)).toEqual([
      { type: 'reply', id: 41, result: { ok: true, value: { echo: { a: 1 } } } },
    ]);
    expect(core.calls.at(-1)).toEqual({ channel: 'settings.get', input: { a: 1 } });
    c.ws.close();
  });

  it('bad frames get typed errors and never reach the router; the socket stays open', async () => {
    const c = connect();
    await c.opened;
    const before = core.calls.length;
    c.ws.send('not json');
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    c.ws.send(JSON.stringify({ id: 9, channel: 'settings.get', extra: true }));
    c.ws.send('x'.repeat(BRIDGE_FRAME_MAX_BYTES + 10));
    const nulls = await c.replyTo(null, 3);
    expect(nulls.map((f) => f.type === 'reply' && !f.result.ok && f.result.error.kind)).toEqual([
      'invalid_input',
      'invalid_input',
      'invalid_input',
    ]);
    expect((await c.replyTo(9))[0]).toMatchObject({
      result: { ok: false, error: { kind: 'invalid_input' } },
    });
    expect(core.calls.length).toBe(before);
    c.ws.send(JSON.stringify({ id: 10, channel: 'settings.get' }));
    expect((await c.replyTo(10))[0]).toMatchObject({ result: { ok: true } });
    c.ws.close();
  });

  it('a frame over the socket cap closes that socket (1009), and the host keeps serving others', async () => {
    const c = connect();
    await c.opened;
    const closed = new Promise<number>((r) => c.ws.on('close', (code) => r(code)));
    c.ws.send('x'.repeat(1024 * 1024 + 1));
    expect(await closed).toBe(1009);
    const d = connect();
    await d.opened;
    d.ws.send(JSON.stringify({ id: 1, channel: 'settings.get' }));
    expect((await d.replyTo(1))[0]).toMatchObject({ result: { ok: true } });
    d.ws.close();
  });

  it('a router that throws answers internal, without its message', async () => {
    const c = connect();
    await c.opened;
    c.ws.send(JSON.stringify({ id: 5, channel: 'boom' }));
    const [r] = await c.replyTo(5);
    expect(r).toMatchObject({
      result: { ok: false, error: { kind: 'internal', message: 'boom failed inside OrderDesk' } },
    });
    expect(JSON.stringify(logger.entries)).not.toContain('secret detail');
    c.ws.close();
  });

  it('a result that cannot be serialised answers internal, and the socket keeps working', async () => {
    const c = connect();
    await c.opened;
    c.ws.send(JSON.stringify({ id: 6, channel: 'bigint' }));
    const [r] = await c.replyTo(6);
    expect(r).toMatchObject({ result: { ok: false, error: { kind: 'internal' } } });
    c.ws.send(JSON.stringify({ id: 7, channel: 'settings.get' }));
    expect((await c.replyTo(7))[0]).toMatchObject({ result: { ok: true } });
    c.ws.close();
  });

  it('events reach every page; only the tray state (not in session.snapshot) is replayed to a page that connects later', async () => {
    const a = connect();
    await a.opened;
    core.emit('session.connection', { profileId: 'paper', time: 1, state: 'connected', seq: 1 });
    bridge.publish('tray.state', { state: 'idle', mode: 'paper', tooltip: 'OrderDesk · Paper' });
    core.emit('books.funds', {
      profileId: 'paper',
      view: {
        availableCash: '1.00',
        collateral: '0.00',
        realisedMtm: '0.00',
        unrealisedMtm: '0.00',
        utilisedDebits: '0.00',
      },
      seq: 2,
    });
    await expect.poll(() => a.frames.filter((f) => f.type === 'event').length).toBe(3);
    const b = connect();
    await b.opened;
    await expect
      .poll(() => b.frames.map((f) => (f.type === 'event' ? f.name : f.type)).sort())
      .toEqual(['tray.state']);
    a.ws.close();
    b.ws.close();
  });

  it('the first page shows the window to the core, the last hides it; a page that closes has its watches released', async () => {
    await expect.poll(() => bridge.connections).toBe(0);
    const from = core.calls.length;
    const since = () => core.calls.slice(from).filter((c) => c.channel !== 'settings.get');
    const a = connect();
    await a.opened;
    await expect.poll(since).toEqual([{ channel: 'watcher.setVisibility', input: { visible: true } }]);
    const b = connect();
    await b.opened;
    const watch = { symbols: [{ symbol: 'SBIN', exchange: 'NSE' }], mode: 'ltp' };
    a.ws.send(JSON.stringify({ id: 1, channel: 'market.watch', input: watch }));
    a.ws.send(JSON.stringify({ id: 2, channel: 'market.watch', input: watch }));
    b.ws.send(JSON.stringify({ id: 3, channel: 'market.watch', input: watch }));
    await a.replyTo(2);
    await b.replyTo(3);
    const [first, second] = (await a.replyTo(1))
      .concat(await a.replyTo(2))
      .map((f) => (f.type === 'reply' && f.result.ok ? (f.result.value as { id: string }).id : ''));
    a.ws.send(JSON.stringify({ id: 4, channel: 'market.unwatch', input: { id: first } }));
    await a.replyTo(4);
    const before = since().length;
    a.ws.close();
    // A's watch it did not unwatch is released; b is still open, so nothing is hidden.
    await expect
      .poll(() => since().slice(before))
      .toEqual([{ channel: 'market.unwatch', input: { id: second } }]);
    b.ws.close();
    await expect
      .poll(() =>
        since()
          .slice(before + 1)
          .map((c) => c.input),
      )
      .toEqual([{ id: expect.stringMatching(/^w\d+$/) }, { visible: false }]);
  });

  it(`at most ${BRIDGE_MAX_IN_FLIGHT} calls of a page run at once; the rest wait (socket paused) and are all answered`, async () => {
    const c = connect();
    await c.opened;
    core.hold();
    const total = BRIDGE_MAX_IN_FLIGHT + 100;
    const first = 1000;
    for (let i = 0; i < total; i++) c.ws.send(JSON.stringify({ id: first + i, channel: 'settings.get' }));
    await expect.poll(() => core.maxConcurrent()).toBe(BRIDGE_MAX_IN_FLIGHT);
    // A page opened after all those calls were sent gets its answer once the host has read what
    // reached it before: the further calls of the paused socket still ran none.
    const later = connect();
    await later.opened;
    later.ws.send('not json');
    await later.replyTo(null);
    later.ws.close();
    expect(core.maxConcurrent()).toBe(BRIDGE_MAX_IN_FLIGHT);
    expect(c.frames.filter((f) => f.type === 'reply')).toEqual([]);
    core.release();
    await expect.poll(() => c.frames.filter((f) => f.type === 'reply').length, { timeout: 5000 }).toBe(total);
    expect(c.frames.every((f) => f.type !== 'reply' || f.result.ok)).toBe(true);
    c.ws.close();
  });
});

/** An upgrade request with a raw request target (clients normalise it); resolves with the status. */
function rawUpgrade(target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(host.port, '127.0.0.1', () =>
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nOrigin: ${host.origin}\r\nCookie: ${cookie}\r\n` +
          'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      ),
    );
    let head = '';
    socket.on('data', (d: Buffer) => {
      head += d.toString();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (m) {
        resolve(Number(m[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed without a status: ${head}`)));
  });
}

describe('web host: request targets it cannot read', () => {
  it('a page request or an upgrade to `//`, `///` or `/\\` is a 400, and the host keeps serving', async () => {
    for (const path of ['//', '///', '/\\', '//evil.example/', '/\\evil.example/'])
      expect((await get(host.port, path, { Cookie: cookie })).status, path).toBe(400);
    for (const path of ['//', '/\\']) expect(await rawUpgrade(path), path).toBe(400);
    expect((await get(host.port, '/', { Cookie: cookie })).status).toBe(200);
  });
});

describe('web host: refused upgrades in the log', () => {
  it('200 refused upgrades: one line per reason, the others counted (here when the host stops)', async () => {
    const own = createMemoryLogger();
    const ownBridge = createWsBridge({ logger: own });
    const other = await startWebHost({ bridge: ownBridge, rendererDir, port: 0, logger: own });
    const refused = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${other.port}${path}`, {
          headers: { Origin: other.origin },
        });
        ws.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.on('open', () => reject(new Error('opened')));
        ws.on('error', reject);
      });
    for (let batch = 0; batch < 10; batch++) {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => refused(i < 15 ? '/bridge' : '/elsewhere')),
      );
      expect(new Set(statuses)).toEqual(new Set([401, 404]));
    }
    const lines = () => own.entries.filter((e) => e.message.startsWith('bridge connection'));
    expect(lines().map((e) => [e.message, e.fields])).toEqual(
      expect.arrayContaining([
        ['bridge connection refused', { reason: 'no_session' }],
        ['bridge connection refused', { reason: 'wrong_path' }],
      ]),
    );
    expect(lines()).toHaveLength(2);
    await other.stop();
    expect(
      lines()
        .slice(2)
        .map((e) => e.fields),
    ).toEqual(
      expect.arrayContaining([
        { reason: 'no_session', count: 149, seconds: 10 },
        { reason: 'wrong_path', count: 49, seconds: 10 },
      ]),
    );
    expect(lines()).toHaveLength(4);
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
