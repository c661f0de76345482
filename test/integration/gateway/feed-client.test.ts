// The feed client against a scripted WebSocket server on 127.0.0.1 (port 0): what it sends and when,
// how it reads refusals, silence and drops, and that the key only ever travels in the first message.
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  createFeedClient,
  ManualClock,
  type FeedClient,
  type FeedStatus,
} from '../../../src-main/gateway/index.js';
import { deriveFeedUrl, feedUrlProblem } from '../../../src-main/gateway/feed-url.js';

type Msg = Record<string, unknown>;

interface Scripted {
  url: string;
  /** Every message received, per connection, in order. */
  connections: { ws: WebSocket; url: string; received: Msg[] }[];
  stop(): Promise<void>;
}

/** A server that answers `authenticate` with `reply(key)` (undefined: says nothing). */
async function scripted(reply: (key: unknown) => Msg | undefined): Promise<Scripted> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const connections: Scripted['connections'] = [];
  wss.on('connection', (ws, req) => {
    const c = { ws, url: req.url ?? '', received: [] as Msg[] };
    connections.push(c);
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Msg;
      c.received.push(m);
      if (m.action === 'authenticate') {
        const answer = reply(m.api_key);
        if (answer) ws.send(JSON.stringify(answer));
      }
    });
  });
  const { port } = wss.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    connections,
    stop: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => r());
      }),
  };
}

const OK = { type: 'auth', status: 'success', message: 'Authentication successful', broker: 'test' };
const KEY = 'k'.repeat(64);

async function until(cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

let server: Scripted | undefined;
let client: FeedClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.stop();
  server = client = undefined;
});

function start(s: Scripted, clock: ManualClock, key: () => string | undefined = () => KEY) {
  const statuses: FeedStatus[] = [];
  client = createFeedClient({ url: s.url, getApiKey: async () => key(), clock, retryBaseMs: 1000 });
  client.onStatus((st) => statuses.push(st));
  return statuses;
}

describe('feed client', () => {
  it('authenticates in its first message, then subscribes orders and the symbols it follows, by mode', async () => {
    server = await scripted(() => OK);
    const clock = new ManualClock(0);
    start(server, clock);
    client!.setSymbols([
      { symbol: 'SBIN', exchange: 'NSE', mode: 3 },
      { symbol: 'INFY', exchange: 'NSE', mode: 1 },
    ]);
    await until(() => client!.status().state === 'live');
    const c = server.connections[0]!;
    await until(() => c.received.length >= 4);
    expect(c.url).toBe('/ws');
    expect(c.received[0]).toEqual({ action: 'authenticate', api_key: KEY });
    expect(c.received.slice(1)).toEqual([
      { action: 'subscribe', mode: 1, symbols: [{ symbol: 'INFY', exchange: 'NSE' }] },
      { action: 'subscribe', mode: 3, symbols: [{ symbol: 'SBIN', exchange: 'NSE' }] },
      { action: 'subscribe_orders' },
    ]);
    // A change sends only the difference.
    client!.setSymbols([{ symbol: 'SBIN', exchange: 'NSE', mode: 3 }]);
    await until(() => c.received.length >= 5);
    expect(c.received[4]).toEqual({
      action: 'unsubscribe',
      mode: 1,
      symbols: [{ symbol: 'INFY', exchange: 'NSE', mode: 1 }],
    });
  });

  it('reads a refused key as down, and tries again after its backoff with the key read anew', async () => {
    let key = 'wrong';
    server = await scripted((k) =>
      k === KEY ? OK : { status: 'error', code: 'AUTHENTICATION_ERROR', message: 'Invalid API key' },
    );
    const clock = new ManualClock(0);
    const statuses = start(server, clock, () => key);
    await until(() => client!.status().state === 'down');
    expect(client!.status()).toEqual({ state: 'down', reason: 'AUTHENTICATION_ERROR' });
    key = KEY;
    await clock.advance(999);
    expect(server.connections).toHaveLength(1);
    await clock.advance(1);
    await until(() => client!.status().state === 'live');
    expect(server.connections).toHaveLength(2);
    expect(statuses.map((s) => s.state)).toEqual(['down', 'live']);
  });

  it('is not live on an auth message that is not a success', async () => {
    server = await scripted(() => ({ type: 'auth', status: 'error', message: 'Broker session expired' }));
    const clock = new ManualClock(0);
    const statuses = start(server, clock);
    await until(() => client!.status().state === 'down');
    expect(statuses.map((s) => s.state)).toEqual(['down']);
    expect(client!.status().reason).toBe('AUTHENTICATION_ERROR');
  });

  it('gives up on a server that never answers authenticate, and on one that stops answering pings', async () => {
    let answer = false;
    server = await scripted(() => (answer ? OK : undefined));
    const clock = new ManualClock(0);
    start(server, clock);
    await until(() => server!.connections.length === 1);
    await until(() => server!.connections[0]!.received.length === 1);
    await clock.advance(10_000);
    expect(client!.status()).toEqual({ state: 'down', reason: 'no answer to authenticate' });
    answer = true;
    await clock.advance(1000);
    await until(() => client!.status().state === 'live');
    // Live, but the server no longer says anything: after its pings go unanswered it reconnects.
    await clock.advance(25_000);
    await until(() => server!.connections[1]!.received.some((m) => m.action === 'ping'));
    await clock.advance(50_000);
    expect(client!.status()).toMatchObject({ state: 'down', reason: 'no answer to ping' });
  });

  it("counts the server's own WebSocket pings as heard: no ping of its own until they stop", async () => {
    server = await scripted(() => OK);
    const clock = new ManualClock(0);
    const statuses = start(server, clock);
    await until(() => client!.status().state === 'live');
    const conn = server.connections[0]!;
    const serverPing = async () => {
      const heard = new Promise((r) => conn.ws.once('pong', r));
      conn.ws.ping();
      await heard; // the client's automatic pong: its 'ping' has been seen
    };
    // A server pinging every 10 s for a minute: the client's 25 s checks find it heard each time.
    for (let t = 0; t < 6; t++) {
      await clock.advance(10_000);
      await serverPing();
    }
    await clock.advance(5_000);
    expect(conn.received.filter((m) => m.action === 'ping')).toHaveLength(0);
    expect(client!.status().state).toBe('live');
    // The server goes quiet: the client pings, then, still unanswered, reconnects.
    await clock.advance(40_000);
    await until(() => conn.received.some((m) => m.action === 'ping'));
    await clock.advance(25_000);
    expect(statuses).toContainEqual({ state: 'down', reason: 'no answer to ping' });
    expect(server.connections).toHaveLength(2);
  });

  it('reconnects after a drop with growing backoff, and stays closed once closed', async () => {
    server = await scripted(() => OK);
    const clock = new ManualClock(0);
    start(server, clock);
    await until(() => client!.status().state === 'live');
    server.connections[0]!.ws.terminate();
    await until(() => client!.status().state === 'down');
    await clock.advance(1000);
    await until(() => client!.status().state === 'live');
    expect(server.connections).toHaveLength(2);
    client!.close();
    expect(client!.status().state).toBe('closed');
    await until(() => server!.connections[1]!.ws.readyState === 3);
    await clock.advance(120_000);
    expect(server.connections).toHaveLength(2);
  });

  it('stays down without a key, and refuses a URL that could carry one', async () => {
    server = await scripted(() => OK);
    const clock = new ManualClock(0);
    start(server, clock, () => undefined);
    await until(() => client!.status().state === 'down');
    expect(client!.status().reason).toBe('no key');
    expect(server.connections).toHaveLength(0);
    expect(() =>
      createFeedClient({ url: `${server!.url}?apikey=x`, getApiKey: async () => KEY, clock }),
    ).toThrow('no credentials or query');
    expect(feedUrlProblem('http://127.0.0.1/ws')).toBe('the feed URL must start with ws:// or wss://');
    expect(feedUrlProblem('wss://user:pw@example.com/ws')).toBe(
      'the feed URL must carry no credentials or query',
    );
  });
});

describe('feed URL from a base URL', () => {
  it('is wss://host/ws behind https and the feed port on plain http', () => {
    expect(deriveFeedUrl('https://algo.example.com')).toBe('wss://algo.example.com/ws');
    expect(deriveFeedUrl('https://algo.example.com:8443/api')).toBe('wss://algo.example.com:8443/ws');
    expect(deriveFeedUrl('http://127.0.0.1:5000')).toBe('ws://127.0.0.1:8765');
    expect(deriveFeedUrl('http://[::1]:5000')).toBe('ws://[::1]:8765');
    expect(deriveFeedUrl('ftp://x')).toBeUndefined();
    expect(deriveFeedUrl('not a url')).toBeUndefined();
  });
});
