// The paper feed against the live server's recorded WebSocket answers (test/fixtures/openalgo/live):
// the official SDK's client (Python websocket-client) is accepted with the Origin it sends by default,
// every other origin is refused; request_id comes back on error frames too; a float or digit-string
// mode is INVALID_MODE; the subscribe ack echoes the depth asked for and says how many levels are
// served; unsubscribing what was never subscribed reports success.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectFeed, type Msg, type TestFeedClient } from '../../support/feed-client.js';
import { startEngineGateway, type EngineTestGateway } from '../../support/paper-gateway.js';
import { FIXTURES } from '../../support/gateway-samples.js';

const RECORDED = JSON.parse(readFileSync(`${FIXTURES}/live/recorded.json`, 'utf8')) as {
  websocket: Record<string, Record<string, unknown>>;
};
const ws = RECORDED.websocket;

let gw: EngineTestGateway | undefined;
const open: TestFeedClient[] = [];

async function start(): Promise<EngineTestGateway> {
  gw = await startEngineGateway({ feed: { authGraceMs: 15_000, tickMs: 250 } });
  return gw;
}
async function client(g: EngineTestGateway, headers: Record<string, string> = {}): Promise<TestFeedClient> {
  const c = await connectFeed(g.gateway.feedUrl, headers);
  open.push(c);
  return c;
}
async function authed(g: EngineTestGateway): Promise<TestFeedClient> {
  const c = await client(g);
  c.send({ action: 'authenticate', api_key: g.apiKey });
  await c.next((m) => m.type === 'auth');
  return c;
}

/**
 * The opening handshake exactly as Python's websocket-client writes it (_handshake.py): request line,
 * Upgrade, Host, Origin `http://` + the same host:port, key, version, Connection. Resolves with the
 * status line the server answered.
 */
function pythonHandshake(port: number, host: string, origin: string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () => {
      const lines = ['GET /ws HTTP/1.1', 'Upgrade: websocket', `Host: ${host}`];
      if (origin !== undefined) lines.push(`Origin: ${origin}`);
      lines.push(
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        'Connection: Upgrade',
      );
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    let got = '';
    socket.on('data', (d: Buffer) => {
      got += d.toString('latin1');
      const end = got.indexOf('\r\n');
      if (end >= 0) {
        resolve(got.slice(0, end));
        socket.destroy();
      }
    });
  });
}

const isError = (code: string) => (m: Msg) => m.status === 'error' && m.code === code;

afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => undefined);
  await gw?.stop();
  gw = undefined;
});

describe('paper feed: the Origin a real SDK client sends', () => {
  it("accepts Python websocket-client's handshake with the server's own origin, and no origin", async () => {
    const g = await start();
    const port = Number(new URL(g.url).port);
    const self = `127.0.0.1:${port}`;
    expect(await pythonHandshake(port, self, `http://${self}`)).toBe('HTTP/1.1 101 Switching Protocols');
    expect(await pythonHandshake(port, self, undefined)).toBe('HTTP/1.1 101 Switching Protocols');
    // A ws client with that origin streams: authenticate and subscribe over it.
    const c = await client(g, { Origin: `http://${self}` });
    c.send({ action: 'authenticate', api_key: g.apiKey });
    expect(await c.next((m) => m.type === 'auth')).toMatchObject({ status: 'success' });
    c.send({ action: 'subscribe', symbol: 'SBIN', exchange: 'NSE', mode: 1 });
    await c.next((m) => m.type === 'market_data' && m.symbol === 'SBIN');
  });

  it('refuses a foreign origin, the same host on another port, and a page that names itself the host', async () => {
    const g = await start();
    const port = Number(new URL(g.url).port);
    const self = `127.0.0.1:${port}`;
    const forbidden = 'HTTP/1.1 403 Forbidden';
    expect(await pythonHandshake(port, self, 'http://evil.example')).toBe(forbidden);
    expect(await pythonHandshake(port, self, `http://127.0.0.1:${port + 1}`)).toBe(forbidden);
    expect(await pythonHandshake(port, self, 'http://127.0.0.1')).toBe(forbidden);
    expect(await pythonHandshake(port, self, 'null')).toBe(forbidden);
    expect(await pythonHandshake(port, self, `http://${self}/`)).toBe(forbidden);
    // DNS rebinding: a page at evil.example:PORT resolved to 127.0.0.1 sends its own name as both.
    expect(await pythonHandshake(port, `evil.example:${port}`, `http://evil.example:${port}`)).toBe(
      forbidden,
    );
    await expect(client(g, { Origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    expect(g.gateway.feed.stats().clients).toBe(0);
  });

  it("accepts the own origin on the feed's own port too (--ws-port)", async () => {
    const g = await start();
    const port = await g.gateway.feed.listen('127.0.0.1', 0);
    const self = `127.0.0.1:${port}`;
    expect(await pythonHandshake(port, self, `http://${self}`)).toBe('HTTP/1.1 101 Switching Protocols');
    expect(await pythonHandshake(port, `localhost:${port}`, `http://localhost:${port}`)).toBe(
      'HTTP/1.1 101 Switching Protocols',
    );
    expect(await pythonHandshake(port, self, `http://127.0.0.1:${Number(new URL(g.url).port)}`)).toBe(
      'HTTP/1.1 403 Forbidden',
    );
  });
});

describe('paper feed: error frames and acks as the live server answers', () => {
  it('echoes request_id on NOT_AUTHENTICATED, AUTHENTICATION_ERROR, INVALID_ACTION and INVALID_MODE', async () => {
    const g = await start();
    const c = await client(g);
    const before = ws.subscribe_before_auth as { send: Msg; recv: Msg };
    c.send(before.send);
    expect(await c.next(isError('NOT_AUTHENTICATED'))).toEqual(before.recv);
    c.send({ action: 'authenticate', api_key: 'wrong', request_id: 'a1' });
    expect(await c.next(isError('AUTHENTICATION_ERROR'))).toMatchObject({ request_id: 'a1' });
    // A failed auth leaves the socket open: ping still answers.
    c.send({ action: 'ping', request_id: 'p1' });
    expect(await c.next((m) => m.type === 'pong')).toMatchObject({ status: 'success' });
    c.send({ action: 'launch', request_id: 'x1' });
    expect(await c.next(isError('INVALID_ACTION'))).toMatchObject({ request_id: 'x1' });
    c.send({ action: 'authenticate', api_key: g.apiKey });
    await c.next((m) => m.type === 'auth');
    c.send({ action: 'subscribe', symbol: 'SBIN', exchange: 'NSE', mode: 9, request_id: 'm1' });
    expect(await c.next(isError('INVALID_MODE'))).toMatchObject({ request_id: 'm1' });
    c.send({ action: 'subscribe', symbols: [], mode: 1, request_id: 'e1' });
    expect(await c.next(isError('INVALID_PARAMETERS'))).toMatchObject({ request_id: 'e1' });
    const empty = ws.empty_object as { send: Msg; recv: Msg };
    c.send(empty.send);
    expect(await c.next(isError('INVALID_ACTION'))).toEqual(empty.recv);
  });

  it('refuses mode "2" (a digit string) and 2.0 (a float) with INVALID_MODE', async () => {
    const g = await start();
    const c = await authed(g);
    c.send((ws.mode_string_digit as { send: Msg }).send);
    await c.next(isError('INVALID_MODE'));
    const float = ws.mode_float as { send_raw: string; recv: Msg };
    c.send(float.send_raw);
    expect(await c.next(isError('INVALID_MODE'))).toEqual(float.recv);
    expect(c.messages.some((m) => m.type === 'subscribe')).toBe(false);
  });

  it('echoes the depth asked (depth or legacy depth_level) and says 5 levels are served', async () => {
    const g = await start();
    const c = await authed(g);
    for (const name of ['subscribe_depth_20', 'subscribe_depth_level_50']) {
      const s = ws[name] as { send: Msg; subscription_depth: number };
      c.send(s.send);
      const ack = await c.next((m) => m.type === 'subscribe');
      expect(ack.subscriptions).toEqual([
        {
          symbol: 'RELIANCE',
          exchange: 'NSE',
          status: 'success',
          mode: 'Depth',
          depth: s.subscription_depth,
          depth_served: 5,
          broker: 'paper',
        },
      ]);
    }
    // The first subscription's first tick: five levels a side, as the ack said.
    const tick = c.messages.find((m) => m.type === 'market_data' && m.symbol === 'RELIANCE') as Msg;
    expect((tick.data as { depth: { buy: unknown[] } }).depth.buy).toHaveLength(5);
    c.send({ action: 'subscribe', symbol: 'SBIN', exchange: 'NSE', mode: 3, depth: 7, request_id: 'd7' });
    expect(await c.next(isError('INVALID_PARAMETERS'))).toMatchObject({
      message: 'depth must be 5, 20, 30 or 50',
      request_id: 'd7',
    });
  });

  it('reports success for unsubscribing a key that was never subscribed', async () => {
    const g = await start();
    const c = await authed(g);
    const u = ws.unsubscribe_not_subscribed as { send: Msg; recv_status: string };
    c.send(u.send);
    expect(await c.next((m) => m.type === 'unsubscribe')).toMatchObject({
      status: u.recv_status,
      successful: [{ symbol: 'SBIN', exchange: 'NSE', status: 'success', broker: 'paper' }],
      failed: [],
    });
  });
});
