// The shared setup of the feed-*.test.ts files: paper gateways with a fast feed, WebSocket clients of
// it (plain, authenticated, or a raw socket that never reads), all closed and stopped after each test.
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterEach } from 'vitest';
import { connectFeed, type Msg, type TestFeedClient } from '../../support/feed-client.js';
import { startEngineGateway, type EngineTestGateway } from '../../support/paper-gateway.js';

/** A masked client text frame (RFC 6455 §5.2). */
export function frame(body: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify(body));
  const mask = randomBytes(4);
  const head =
    payload.length < 126
      ? Buffer.from([0x81, 0x80 | payload.length])
      : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.from(payload.map((b, i) => b ^ (mask[i % 4] ?? 0)));
  return Buffer.concat([head, mask, masked]);
}

export const isError = (code: string) => (m: Msg) => m.status === 'error' && m.code === code;

/** Registers the afterEach that closes every client and stops the gateway; returns the helpers. */
export function useFeedGateways() {
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
  return { open, start, client, authed, nonReader, drained };
}
