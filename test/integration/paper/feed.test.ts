// The paper gateway's WebSocket feed over a real socket (127.0.0.1, port 0): the real gateway's
// protocol (gateway-behaviour §13) action by action, every error code, order_update for each order
// transition in order, and ticks that agree with REST depth at the same instant. Time is a
// ManualClock: ticks, the auth grace and the engine's matching move only when the test says.
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { connectFeed, type Msg, type TestFeedClient } from '../../support/feed-client.js';
import { startEngineGateway, tickRound, type EngineTestGateway } from '../../support/paper-gateway.js';

let gw: EngineTestGateway | undefined;
const open: TestFeedClient[] = [];

async function start(feed = {}): Promise<EngineTestGateway> {
  gw = await startEngineGateway({ feed: { authGraceMs: 15_000, tickMs: 250, ...feed } });
  return gw;
}
async function client(g: EngineTestGateway, headers: Record<string, string> = {}): Promise<TestFeedClient> {
  const c = await connectFeed(g.gateway.feedUrl, headers);
  open.push(c);
  return c;
}
async function authed(g: EngineTestGateway, key = g.apiKey): Promise<TestFeedClient> {
  const c = await client(g);
  c.send({ action: 'authenticate', api_key: key });
  await c.next((m) => m.type === 'auth');
  return c;
}
/** A masked client text frame (RFC 6455 §5.2). */
function frame(body: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify(body));
  const mask = randomBytes(4);
  const head =
    payload.length < 126
      ? Buffer.from([0x81, 0x80 | payload.length])
      : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.from(payload.map((b, i) => b ^ (mask[i % 4] ?? 0)));
  return Buffer.concat([head, mask, masked]);
}

/**
 * A client that upgrades, authenticates and subscribes by hand, then never reads its socket (a
 * `ws` client would resume its own socket): the server sees exactly a reader that stopped.
 */
async function nonReader(g: EngineTestGateway, subscribe: unknown): Promise<Socket> {
  const { port } = new URL(g.url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((r) => socket.once('connect', () => r()));
  socket.write(
    'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  socket.write(frame({ action: 'authenticate', api_key: g.apiKey }));
  socket.write(frame(subscribe));
  return socket;
}

const isError = (code: string) => (m: Msg) => m.status === 'error' && m.code === code;

let pings = 0;
/**
 * Every frame the server sent `c` before now has arrived: the server answers a ping in order on the
 * same socket, so its pong comes after them. The pong stays in `c.messages`.
 */
async function drained(c: TestFeedClient): Promise<Msg> {
  const stamp = ++pings;
  c.send({ action: 'ping', timestamp: stamp });
  return c.next((m) => m.type === 'pong' && m.client_timestamp === stamp);
}

afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => undefined);
  await gw?.stop();
  gw = undefined;
});

describe('paper feed: connection and authentication', () => {
  it('serves ws://host:port/ws on the HTTP port and authenticates with api_key or apikey', async () => {
    const g = await start();
    expect(g.gateway.feedUrl).toBe(`${g.url.replace('http://', 'ws://')}/ws`);
    const a = await client(g);
    a.send({ action: 'authenticate', api_key: g.apiKey });
    expect(await a.next((m) => m.type === 'auth')).toEqual({
      type: 'auth',
      status: 'success',
      message: 'Authentication successful',
      broker: 'paper',
      user_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      supported_features: { ltp: true, quote: true, depth: true },
    });
    const b = await client(g);
    b.send({ action: 'authenticate', apikey: g.apiKey });
    expect(await b.next((m) => m.type === 'auth')).toMatchObject({ status: 'success' });
  });

  it('answers AUTHENTICATION_ERROR for a missing or wrong key and stays unauthenticated', async () => {
    const g = await start();
    const c = await client(g);
    c.send({ action: 'authenticate' });
    expect(await c.next(isError('AUTHENTICATION_ERROR'))).toMatchObject({ message: 'API key is required' });
    c.send({ action: 'authenticate', api_key: 'not-a-key' });
    expect(await c.next(isError('AUTHENTICATION_ERROR'))).toMatchObject({ message: 'Invalid API key' });
    c.send({ action: 'subscribe', symbol: 'SBIN', exchange: 'NSE', mode: 1 });
    expect(await c.next(isError('NOT_AUTHENTICATED'))).toMatchObject({
      message: 'You must authenticate first',
    });
    for (const action of ['unsubscribe', 'unsubscribe_all', 'subscribe_orders', 'get_broker_info']) {
      c.send({ action });
      await c.next(isError('NOT_AUTHENTICATED'));
    }
  });

  it('closes an unauthenticated socket with 4401 "auth timeout" after the grace period, not before', async () => {
    const g = await start({ authGraceMs: 5000 });
    const idle = await client(g);
    const good = await authed(g);
    g.clock.advance(4999);
    // A close at 4999 ms would reach the client before the answer to this ping.
    await drained(idle);
    expect(idle.ws.readyState).toBe(WebSocket.OPEN);
    g.clock.advance(1);
    expect(await idle.closed).toEqual({ code: 4401, reason: 'auth timeout' });
    expect(good.ws.readyState).toBe(WebSocket.OPEN);
  });

  it("also serves on a port of its own (--ws-port), as upstream's 8765", async () => {
    const g = await start();
    const { parseCli } = await import('../../../src-main/paper/cli.js');
    expect(parseCli(['--ws-port', '8765']).wsPort).toBe(8765);
    expect(parseCli([]).wsPort).toBeUndefined();
    expect(() => parseCli(['--ws-port', 'x'])).toThrow('--ws-port must be a whole number');
    const port = await g.gateway.feed.listen('127.0.0.1', 0);
    const c = await connectFeed(`ws://127.0.0.1:${port}`);
    open.push(c);
    c.send({ action: 'authenticate', apikey: g.apiKey });
    expect(await c.next((m) => m.type === 'auth')).toMatchObject({ status: 'success' });
  });

  it('is offered by the embedded paper profile (the composition gateway port)', async () => {
    const { embeddedPaperGateway } = await import('../../../src-main/composition/paper-port.js');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dataDir = mkdtempSync(join(tmpdir(), 'paper-port-'));
    const key = 'e'.repeat(64);
    const embedded = await embeddedPaperGateway({ dataDir, apiKey: key });
    try {
      expect(embedded.feedUrl).toBe(`${embedded.url.replace('http://', 'ws://')}/ws`);
      const c = await connectFeed(embedded.feedUrl ?? '');
      open.push(c);
      c.send({ action: 'authenticate', api_key: key });
      expect(await c.next((m) => m.type === 'auth')).toMatchObject({ status: 'success' });
    } finally {
      for (const c of open.splice(0)) await c.close();
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a connection with an Origin header (a web page) and other upgrade paths', async () => {
    const g = await start();
    await expect(connectFeed(g.gateway.feedUrl, { Origin: 'http://evil.example' })).rejects.toThrow(
      'HTTP 403',
    );
    await expect(connectFeed(g.gateway.feedUrl, { Origin: 'null' })).rejects.toThrow('HTTP 403');
    await expect(connectFeed(`${g.url.replace('http', 'ws')}/other`)).rejects.toThrow('HTTP 404');
    expect(g.gateway.feed.stats().clients).toBe(0);
  });

  it('answers ping with pong (echoing the client timestamp) and names bad JSON and unknown actions', async () => {
    const g = await start();
    const c = await client(g);
    c.send({ action: 'ping', timestamp: 123 });
    expect(await c.next((m) => m.type === 'pong')).toEqual({
      type: 'pong',
      status: 'success',
      server_timestamp: g.clock.now(),
      client_timestamp: 123,
    });
    c.send('{not json');
    expect(await c.next(isError('INVALID_JSON'))).toMatchObject({ message: 'Invalid JSON message' });
    c.send({ action: 'launch' });
    expect(await c.next(isError('INVALID_ACTION'))).toMatchObject({ message: 'Invalid action: launch' });
    c.send([1, 2]);
    await c.next(isError('INVALID_PARAMETERS'));
    c.send({ type: 'get_supported_brokers' });
    expect(await c.next((m) => m.type === 'supported_brokers')).toMatchObject({ brokers: ['paper'] });
  });
});

describe('paper feed: keep-alive and limits', () => {
  it('answers get_broker_info once authenticated', async () => {
    const g = await start();
    const c = await authed(g);
    c.send({ action: 'get_broker_info' });
    expect(await c.next((m) => m.type === 'broker_info')).toEqual({
      type: 'broker_info',
      status: 'success',
      broker: 'paper',
      adapter_status: 'connected',
      supported_features: { ltp: true, quote: true, depth: true },
    });
  });

  it('drops a client that does not answer its pings, keeps one that does', async () => {
    const g = await start({ pingIntervalMs: 20_000 });
    const alive = await authed(g);
    const mute = await nonReader(g, { action: 'ping' });
    await expect.poll(() => g.gateway.feed.stats().clients).toBe(2);
    const pinged = new Promise((r) => alive.ws.once('ping', r));
    g.clock.advance(20_000); // first ping to both
    await pinged;
    // The ws client answered with a pong before this ping frame: the server has it once we get the pong.
    await drained(alive);
    g.clock.advance(20_000); // the mute one never did
    await expect.poll(() => g.gateway.feed.stats().clients).toBe(1);
    expect(alive.ws.readyState).toBe(WebSocket.OPEN);
    mute.destroy();
  });

  it('holds at most maxSubscriptions (instrument, mode) pairs per connection', async () => {
    const g = await start({ maxSubscriptions: 2 });
    const c = await authed(g);
    c.send({
      action: 'subscribe',
      symbols: ['SBIN', 'INFY', 'TCS'].map((symbol) => ({ symbol, exchange: 'NSE' })),
      mode: 1,
    });
    expect(await c.next((m) => m.type === 'subscribe')).toMatchObject({
      status: 'partial',
      subscriptions: [
        { symbol: 'SBIN', status: 'success' },
        { symbol: 'INFY', status: 'success' },
        { symbol: 'TCS', status: 'error', message: 'At most 2 subscriptions' },
      ],
    });
    // Subscribing again what it holds is no new pair.
    c.send({ action: 'subscribe', symbol: 'SBIN', exchange: 'NSE', mode: 1 });
    expect(await c.next((m) => m.type === 'subscribe')).toMatchObject({ status: 'success' });
  });

  it('runs no timers while nobody is connected', async () => {
    const g = await start();
    const idle = g.clock.pending;
    const c = await authed(g);
    expect(g.clock.pending).toBe(idle + 2); // the tick and the ping (the auth grace is over)
    await c.close();
    await expect.poll(() => g.gateway.feed.stats().clients).toBe(0);
    g.clock.advance(60_000);
    expect(g.clock.pending).toBe(idle);
  });

  it('closes with 1009 on a message over the size limit', async () => {
    const g = await start({ maxPayloadBytes: 1024 });
    const c = await client(g);
    c.send({ action: 'ping', pad: 'x'.repeat(2000) });
    expect((await c.closed).code).toBe(1009);
  });
});

describe('paper feed: market data', () => {
  it('subscribes symbols × mode with an ack, then a first tick per subscription in that mode', async () => {
    const g = await start();
    const c = await authed(g);
    c.send({
      action: 'subscribe',
      symbols: [
        { symbol: 'SBIN', exchange: 'NSE' },
        { symbol: 'infy', exchange: 'NSE' },
      ],
      mode: 'LTP',
      request_id: 'sub-1',
    });
    expect(await c.next((m) => m.type === 'subscribe')).toEqual({
      type: 'subscribe',
      status: 'success',
      subscriptions: [
        { symbol: 'SBIN', exchange: 'NSE', status: 'success', mode: 'LTP', depth: 5, broker: 'paper' },
        { symbol: 'INFY', exchange: 'NSE', status: 'success', mode: 'LTP', depth: 5, broker: 'paper' },
      ],
      message: 'Subscription processing complete',
      broker: 'paper',
      request_id: 'sub-1',
    });
    const sbin = await c.next((m) => m.type === 'market_data' && m.symbol === 'SBIN');
    const ltp = g.gateway.market.lastPrice(g.instrument('NSE', 'SBIN'));
    expect(sbin).toEqual({
      type: 'market_data',
      symbol: 'SBIN',
      exchange: 'NSE',
      mode: 1,
      data: {
        symbol: 'SBIN',
        exchange: 'NSE',
        mode: 'ltp',
        ltp,
        ltt: g.clock.now(),
        timestamp: g.clock.now(),
      },
      broker: 'paper',
    });
    c.send({ action: 'subscribe', symbol: 'RELIANCE', exchange: 'NSE', mode: 2 });
    await c.next((m) => m.type === 'subscribe');
    const quote = await c.next((m) => m.type === 'market_data' && m.symbol === 'RELIANCE');
    expect(quote.mode).toBe(2);
    expect(Object.keys(quote.data as object).sort()).toEqual(
      [
        'symbol',
        'exchange',
        'mode',
        'ltp',
        'volume',
        'last_quantity',
        'total_buy_quantity',
        'total_sell_quantity',
        'open',
        'high',
        'low',
        'close',
        'oi',
        'ltt',
        'timestamp',
      ].sort(),
    );
  });

  it('a depth stream and REST depth agree at any instant, and ticks follow the simulator', async () => {
    const g = await start();
    const c = await authed(g);
    const i = g.instrument('NSE', 'TCS');
    c.send({ action: 'subscribe', symbols: [{ symbol: 'TCS', exchange: 'NSE' }], mode: 'Depth' });
    await c.next((m) => m.type === 'subscribe');
    for (let step = 0; step < 4; step++) {
      await c.next((m) => m.type === 'market_data' && m.symbol === 'TCS');
      await drained(c);
      // The newest tick is the book of now (the clock moved through several feed ticks).
      const tick = c.messages.filter((m) => m.type === 'market_data').at(-1) as Msg;
      const rest = (await g.api('depth', g.apiKey, { symbol: 'TCS', exchange: 'NSE' })).body.data as Record<
        string,
        unknown
      >;
      const data = tick.data as { ltp: number; volume: number; depth: { buy: unknown[]; sell: unknown[] } };
      expect(tick.mode).toBe(3);
      expect(data.ltp).toBe(rest.ltp);
      expect(data.volume).toBe(rest.volume);
      expect(data.depth.buy).toEqual(rest.bids);
      expect(data.depth.sell).toEqual(rest.asks);
      if (step === 2) g.gateway.market.setPrice(i, tickRound(i, data.ltp * 1.01));
      // The next second's book differs: the feed sends it at its next tick.
      g.clock.advance(1000);
    }
  });

  it('sends nothing for an unchanged book, and unsubscribe / unsubscribe_all stop the ticks', async () => {
    const g = await start();
    const c = await authed(g);
    c.send({ action: 'subscribe', symbols: [{ symbol: 'SBIN', exchange: 'NSE' }], mode: 3 });
    c.send({ action: 'subscribe', symbols: [{ symbol: 'INFY', exchange: 'NSE' }], mode: 1 });
    await c.next((m) => m.type === 'market_data' && m.symbol === 'INFY');
    const before = c.messages.length;
    g.clock.advance(250); // same second: the same book
    await drained(c);
    expect(c.messages.slice(before).map((m) => m.type)).toEqual(['pong']);

    c.send({
      action: 'unsubscribe',
      symbols: [{ symbol: 'SBIN', exchange: 'NSE', mode: 3 }],
      request_id: 'u1',
    });
    expect(await c.next((m) => m.type === 'unsubscribe')).toEqual({
      type: 'unsubscribe',
      status: 'success',
      message: 'Unsubscription processing complete',
      successful: [{ symbol: 'SBIN', exchange: 'NSE', status: 'success', broker: 'paper' }],
      failed: [],
      broker: 'paper',
      request_id: 'u1',
    });
    g.clock.advance(1000);
    await c.next((m) => m.type === 'market_data' && m.symbol === 'INFY');
    expect(c.messages.filter((m) => m.type === 'market_data' && m.symbol === 'SBIN')).toHaveLength(1);

    // A key never subscribed is reported unsubscribed, as the live server does (feed-recorded.test.ts).
    c.send({ action: 'unsubscribe', symbols: [{ symbol: 'WIPRO', exchange: 'NSE' }] });
    expect(await c.next((m) => m.type === 'unsubscribe')).toMatchObject({ status: 'success', failed: [] });
    c.send({ action: 'unsubscribe_all' });
    expect(await c.next((m) => m.type === 'unsubscribe')).toMatchObject({
      status: 'success',
      successful: [{ symbol: 'INFY', exchange: 'NSE', status: 'success', broker: 'paper' }],
    });
    const after = c.messages.length;
    g.clock.advance(2000);
    await drained(c);
    expect(c.messages.slice(after).map((m) => m.type)).toEqual(['pong']);
  });

  it('arms its tick only while a topic has a subscriber: one that follows only orders is not woken by it', async () => {
    const g = await start();
    const c = await authed(g);
    c.send({ action: 'subscribe_orders' });
    await c.next((m) => m.type === 'subscribe_orders');
    // The connection's first tick finds no topic and does not arm another; the heartbeat stays.
    g.clock.advance(250);
    const withoutTick = g.clock.pending;
    g.clock.advance(1000);
    expect(g.clock.pending).toBe(withoutTick);

    const i = g.instrument('NSE', 'SBIN');
    c.send({ action: 'subscribe', symbols: [{ symbol: 'SBIN', exchange: 'NSE' }], mode: 1 });
    await c.next((m) => m.type === 'market_data' && m.symbol === 'SBIN');
    expect(g.clock.pending).toBe(withoutTick + 1);
    // Ticks flow again: a price move goes out at the next tick.
    const ticks = () => c.messages.filter((m) => m.type === 'market_data').length;
    const before = ticks();
    const ltp = (c.messages.filter((m) => m.type === 'market_data').at(-1)!.data as { ltp: number }).ltp;
    g.gateway.market.setPrice(i, tickRound(i, ltp * 1.01));
    g.clock.advance(250);
    await c.next((m) => m.type === 'market_data' && m.symbol === 'SBIN');
    expect(ticks()).toBe(before + 1);

    c.send({ action: 'unsubscribe_all' });
    await c.next((m) => m.type === 'unsubscribe');
    g.clock.advance(250);
    expect(g.clock.pending).toBe(withoutTick);
  });

  it('names INVALID_MODE and INVALID_PARAMETERS, and answers partial for an unknown symbol', async () => {
    const g = await start();
    const c = await authed(g);
    c.send({ action: 'subscribe', symbol: 'SBIN', exchange: 'NSE', mode: 'Full' });
    expect(await c.next(isError('INVALID_MODE'))).toMatchObject({ message: expect.stringContaining('Full') });
    c.send({ action: 'subscribe', symbols: [], mode: 1 });
    expect(await c.next(isError('INVALID_PARAMETERS'))).toMatchObject({
      message: 'At least one symbol must be specified',
    });
    c.send({ action: 'unsubscribe' });
    expect(await c.next(isError('INVALID_PARAMETERS'))).toMatchObject({
      message: 'Either symbols or unsubscribe_all is required',
    });
    c.send({
      action: 'subscribe',
      symbols: [
        { symbol: 'SBIN', exchange: 'NSE' },
        { symbol: 'NOSUCH', exchange: 'NSE' },
      ],
      mode: 'quote',
    });
    expect(await c.next((m) => m.type === 'subscribe')).toMatchObject({
      status: 'partial',
      subscriptions: [
        { symbol: 'SBIN', status: 'success', mode: 'Quote' },
        { symbol: 'NOSUCH', status: 'error', message: 'Symbol NOSUCH not found in exchange NSE' },
      ],
    });
  });
});

describe('paper feed: order updates', () => {
  const statusOf = (m: Msg) => `${String(m.order_status)}:${String(m.filled_quantity)}`;

  it("streams every transition of the account's orders, in order, once committed", async () => {
    const g = await start();
    const c = await authed(g);
    c.send({ action: 'subscribe_orders', request_id: 'o1' });
    expect(await c.next((m) => m.type === 'subscribe_orders')).toEqual({
      type: 'subscribe_orders',
      status: 'success',
      message: 'Subscribed to order updates',
      request_id: 'o1',
    });
    const other = await authed(g, g.newKey());
    other.send({ action: 'subscribe_orders' });
    await other.next((m) => m.type === 'subscribe_orders');

    const place = async (fields: Record<string, unknown>) => {
      const r = await g.api('placeorder', g.apiKey, {
        strategy: 'feed',
        exchange: 'NSE',
        action: 'BUY',
        product: 'MIS',
        pricetype: 'MARKET',
        ...fields,
      });
      return r.body.orderid as string;
    };
    const updates = (id: string) => c.messages.filter((m) => m.type === 'order_update' && m.orderid === id);

    // open → cancelled
    const i = g.instrument('NSE', 'ICICIBANK');
    const p = g.gateway.market.lastPrice(i);
    const resting = await place({
      symbol: 'ICICIBANK',
      quantity: 5,
      pricetype: 'LIMIT',
      price: tickRound(i, p * 0.95),
    });
    const opened = await c.next((m) => m.type === 'order_update' && m.orderid === resting);
    expect(opened).toMatchObject({
      mode: 'analyze',
      broker: 'paper',
      symbol: 'ICICIBANK',
      exchange: 'NSE',
      action: 'BUY',
      quantity: 5,
      pricetype: 'LIMIT',
      product: 'MIS',
      order_status: 'open',
      filled_quantity: 0,
      pending_quantity: 5,
      average_price: 0,
      rejection_reason: '',
    });
    await g.api('cancelorder', g.apiKey, { strategy: 'feed', orderid: resting });
    await c.next((m) => m.type === 'order_update' && m.orderid === resting && m.order_status === 'cancelled');

    // trigger pending → complete
    const r = g.instrument('NSE', 'RELIANCE');
    const rp = g.gateway.market.lastPrice(r);
    const stop = await place({
      symbol: 'RELIANCE',
      quantity: 4,
      pricetype: 'SL-M',
      trigger_price: tickRound(r, rp * 1.02),
    });
    await c.next((m) => m.orderid === stop && m.order_status === 'trigger pending');
    g.gateway.market.setPrice(r, tickRound(r, rp * 1.03));
    g.clock.advance(1000);
    g.engine.tick();
    await c.next((m) => m.orderid === stop && m.order_status === 'complete');
    expect(updates(stop).map(statusOf)).toEqual(['trigger pending:0', 'complete:4']);

    // partial → complete (a MARKET order larger than the book walks it over several seconds)
    const h = g.instrument('NSE', 'HDFCBANK');
    const shown = g.gateway.market.book(h).asks.reduce((s, l) => s + l.quantity, 0);
    const big = await place({ symbol: 'HDFCBANK', quantity: shown * 2 });
    const first = await c.next((m) => m.orderid === big);
    expect(first).toMatchObject({ order_status: 'open', filled_quantity: shown, pending_quantity: shown });
    for (let n = 0; n < 20 && updates(big).at(-1)?.order_status !== 'complete'; n++) {
      g.clock.advance(1000);
      g.engine.tick();
      await new Promise((res) => setTimeout(res, 5));
    }
    await c.next((m) => m.orderid === big && m.order_status === 'complete');
    const fills = updates(big).map((m) => m.filled_quantity as number);
    expect(fills).toEqual([...fills].sort((a, b) => a - b));
    expect(fills.at(-1)).toBe(shown * 2);

    // rejected with its reason (the account cannot pay for it)
    const huge = await place({ symbol: 'RELIANCE', quantity: 20_000, product: 'CNC' });
    expect(huge).toMatch(/^\d+$/);
    const rejected = await c.next((m) => m.orderid === huge);
    expect(rejected).toMatchObject({
      order_status: 'rejected',
      rejection_reason: expect.stringMatching(/\S/),
    });

    // The other account saw none of it.
    await drained(other);
    expect(other.messages.filter((m) => m.type === 'order_update')).toEqual([]);

    // unsubscribe_orders stops them.
    c.send({ action: 'unsubscribe_orders' });
    await c.next((m) => m.type === 'unsubscribe_orders');
    const n = c.messages.length;
    await place({ symbol: 'SBIN', quantity: 1 });
    await drained(c);
    expect(c.messages.slice(n).filter((m) => m.type === 'order_update')).toEqual([]);
  });

  it('never announces what a rolled-back transaction wrote', async () => {
    const g = await start();
    const c = await authed(g);
    c.send({ action: 'subscribe_orders' });
    await c.next((m) => m.type === 'subscribe_orders');
    const { accountIdOf } = await import('../../../src-main/paper/auth/key-store.js');
    const account = accountIdOf(g.apiKey);
    const input = {
      strategy: 'feed',
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY' as const,
      quantity: 1,
      pricetype: 'MARKET' as const,
      product: 'MIS' as const,
      price: 0,
      trigger_price: 0,
      disclosed_quantity: 0,
    };
    expect(() =>
      g.engine.transaction(() => {
        g.engine.placeOrder(account, input);
        throw new Error('undo');
      }),
    ).toThrow('undo');
    const kept = g.engine.placeOrder(account, { ...input, quantity: 2 });
    expect(kept.ok).toBe(true);
    const update = await c.next((m) => m.type === 'order_update');
    expect(update.quantity).toBe(2);
    await drained(c);
    expect(c.messages.filter((m) => m.type === 'order_update')).toHaveLength(1);
  });
});

describe('paper feed: slow readers', () => {
  it('drops a client that stops reading, without growing the queue past the limit', async () => {
    const limit = 256 * 1024;
    // Heartbeats off: a reader that stops is also one that stops answering pings (dropped then too).
    const g = await start({ maxBufferedBytes: limit, pingIntervalMs: 1e12 });
    const symbols = g.gateway.master.all
      .filter((i) => i.exchange === 'NSE' && i.kind === 'EQ')
      .slice(0, 50)
      .map((i) => ({ symbol: i.symbol, exchange: i.exchange }));
    expect(symbols).toHaveLength(50);
    const slow = await nonReader(g, { action: 'subscribe', symbols, mode: 'Depth' });
    const fast = await authed(g);
    fast.send({ action: 'subscribe', symbols, mode: 'Depth' });
    await fast.next((m) => m.type === 'subscribe');
    await expect.poll(() => g.gateway.feed.stats().authenticated).toBe(2);
    let seconds = 0;
    for (; seconds < 4000 && g.gateway.feed.stats().dropped === 0; seconds++) {
      g.clock.advance(1000);
      // Let both sockets move data (the fast one reads, the slow one's kernel buffers fill).
      if (seconds % 10 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    const stats = g.gateway.feed.stats();
    expect(stats.dropped).toBe(1);
    // What the server held for any client never passed the limit: memory stays bounded.
    expect(stats.peakBuffered).toBeLessThanOrEqual(limit);
    expect(seconds).toBeGreaterThan(5);
    expect(stats.clients).toBe(1);
    // The fast reader is still served.
    g.clock.advance(1000);
    const now = g.clock.now();
    await fast.next(
      (m) => m.type === 'market_data' && (m.data as { timestamp: number }).timestamp === now,
      5000,
    );
    slow.destroy();
  });
});
