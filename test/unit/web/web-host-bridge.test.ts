// The web host in-process over real HTTP and WebSocket, bound to a fake core: the bridge socket:
// upgrade checks, calls, events and limits.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BRIDGE_FRAME_MAX_BYTES } from '../../../src-main/contract/index.js';
import { BRIDGE_MAX_IN_FLIGHT } from '../../../src-main/web/ws-bridge.js';
import { bridge, connect, cookie, core, get, host, logger, useWebHost } from './web-host-fixture.js';

useWebHost({ signedIn: true });

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
