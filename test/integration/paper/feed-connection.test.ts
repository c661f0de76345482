// The paper gateway's WebSocket feed over a real socket (127.0.0.1, port 0): connection and
// authentication action by action with every error code (gateway-behaviour §13), keep-alive, limits
// and slow readers. Time is a ManualClock: ticks and the auth grace move only when the test says.
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { connectFeed } from '../../support/feed-client.js';
import { isError, useFeedGateways } from './feed-fixture.js';

const { open, start, client, authed, nonReader, drained } = useFeedGateways();

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
