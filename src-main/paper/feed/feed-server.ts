// Over 300 lines: the whole feed protocol (auth, subscriptions, ticks, order updates, errors) is one.
// The paper gateway's WebSocket feed, speaking the real gateway's protocol (gateway-behaviour §13,
// websocket_proxy/server.py): authenticate, subscribe / unsubscribe / unsubscribe_all (symbols ×
// mode), market_data ticks, subscribe_orders → order_update, ping → pong, and its error codes.
//
// Where it listens: on the HTTP server's own port under `/ws` (gateway.ts), not upstream's 8765: the
// embedded gateway runs on a free port so several can run at once, and "the base URL's `/ws`" is how
// the real gateway is reached behind its nginx, so clients derive it the same way. The standalone
// CLI can also listen on a port of its own (`--ws-port`) for SDKs that expect 8765.
//
// Safety: an `Origin` other than the server's own (feed-origin.ts) is refused (403), so a web page
// never reaches the feed; a socket not authenticated within the grace period is closed with 4401
// "auth timeout"; a client whose unsent data passes `maxBufferedBytes` (it does not read) is dropped
// rather than allowed to grow the server's memory; the key is only read from a message, never a URL.
import type { IncomingMessage, Server } from 'node:http';
import { createServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Clock } from '../../contract/clock.js';
import type { PaperOrder } from '../engine/engine.js';
import type { KeyVerifier } from '../http/kit.js';
import type { InstrumentMaster } from '../instruments/instrument.js';
import type { Market } from '../market/market.js';
import { FEED_BROKER, orderUpdateMessage } from './feed-payloads.js';
import { subscribe, unsubscribe, type MarketActions } from './feed-market-actions.js';
import { floatModeMarked, isObject, withRequestId, type Json } from './feed-requests.js';
import { originAllowed } from './feed-origin.js';
import { FeedTopics } from './feed-topics.js';

export const FEED_PATH = '/ws';

export interface FeedOptions {
  /** Unauthenticated sockets are closed (4401) after this long (upstream WS_AUTH_GRACE_SECONDS=15). */
  authGraceMs: number;
  /** Server pings this often; a client that did not answer the last ping is dropped (upstream 20 s). */
  pingIntervalMs: number;
  /** How often the simulator is read for changed ticks. */
  tickMs: number;
  /** A client with more than this queued and unsent is too slow and is dropped. */
  maxBufferedBytes: number;
  /** Largest client message (ws closes 1009 above it). */
  maxPayloadBytes: number;
  /** (instrument, mode) pairs one connection may hold. */
  maxSubscriptions: number;
}

export const DEFAULT_FEED_OPTIONS: FeedOptions = {
  authGraceMs: 15_000,
  pingIntervalMs: 20_000,
  tickMs: 250,
  maxBufferedBytes: 1024 * 1024,
  maxPayloadBytes: 64 * 1024,
  maxSubscriptions: 3000,
};

export interface FeedDeps {
  keys: KeyVerifier;
  master: InstrumentMaster;
  market: Market;
  clock: Clock;
  /** The engine's committed order transitions (absent: subscribe_orders is acknowledged, never fed). */
  onOrderChange?: (listener: (order: PaperOrder) => void) => () => void;
  options?: Partial<FeedOptions>;
}

export interface FeedStats {
  clients: number;
  authenticated: number;
  /** Connections that follow order updates (subscribe_orders). */
  orderSubscribers: number;
  /** Slow readers dropped so far. */
  dropped: number;
  /** Largest amount queued for any one client, at a send, so far (bytes). */
  peakBuffered: number;
  messagesSent: number;
}

export interface FeedServer {
  /** Serves the feed on `server` at `path` (other upgrade paths answer 404). */
  attach(server: Server, path?: string): void;
  /** Serves the feed on a port of its own (any path); resolves with the bound port. */
  listen(host: string, port: number): Promise<number>;
  stats(): FeedStats;
  close(): Promise<void>;
}

interface Conn {
  ws: WebSocket;
  account: string | undefined;
  /** Subscription keys `exchange:symbol:mode` this connection holds. */
  subs: Set<string>;
  orders: boolean;
  alive: boolean;
  cancelGrace: (() => void) | undefined;
}

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

export function createFeedServer(deps: FeedDeps): FeedServer {
  const opts: FeedOptions = { ...DEFAULT_FEED_OPTIONS, ...deps.options };
  const { clock, market, master } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: opts.maxPayloadBytes });
  const conns = new Set<Conn>();
  const topics = new FeedTopics<Conn>(market, clock, (c, text) => send(c, text));
  /** Servers of listen(): closed with the feed (an attached server belongs to its owner). */
  const ownServers: Server[] = [];
  const stats = { dropped: 0, peakBuffered: 0, messagesSent: 0 };
  let closed = false;

  // ---- sending ----

  function send(c: Conn, text: string): void {
    if (c.ws.readyState !== WebSocket.OPEN) return;
    const queued = c.ws.bufferedAmount;
    stats.peakBuffered = Math.max(stats.peakBuffered, queued);
    if (queued + text.length > opts.maxBufferedBytes) {
      stats.dropped++;
      drop(c);
      c.ws.terminate();
      return;
    }
    stats.messagesSent++;
    c.ws.send(text);
  }
  const sendJson = (c: Conn, body: Json) => send(c, JSON.stringify(body));
  /** An error frame, echoing the request's `request_id` when it had one (as the live server does). */
  const sendError = (c: Conn, code: string, message: string, m: Json = {}) =>
    sendJson(c, withRequestId(m, { status: 'error', code, message }));

  const marketActions: MarketActions<Conn> = {
    master,
    topics,
    maxSubscriptions: opts.maxSubscriptions,
    sendJson,
    sendError,
  };

  function drop(c: Conn): void {
    if (!conns.delete(c)) return;
    c.cancelGrace?.();
    topics.removeAll(c);
    if (c.orders) syncOrderListener();
  }

  // ---- order updates ----

  function onOrder(order: PaperOrder): void {
    let text: string | undefined;
    for (const c of [...conns]) {
      if (!c.orders || c.account !== order.account) continue;
      text ??= orderUpdateMessage(order);
      send(c, text);
    }
  }

  /** Listens to the engine only while someone wants order updates: the order path pays nothing else. */
  let stopOrders: (() => void) | undefined;
  function syncOrderListener(): void {
    const wanted = !closed && [...conns].some((c) => c.orders);
    if (wanted && !stopOrders) stopOrders = deps.onOrderChange?.(onOrder);
    else if (!wanted && stopOrders) {
      stopOrders();
      stopOrders = undefined;
    }
  }

  // ---- actions ----

  function authenticate(c: Conn, m: Json): void {
    const key = m.api_key ?? m.apikey;
    if (typeof key !== 'string' || key.trim() === '') {
      sendError(c, 'AUTHENTICATION_ERROR', 'API key is required', m);
      return;
    }
    const account = deps.keys.verify(key);
    if (account === undefined) {
      sendError(c, 'AUTHENTICATION_ERROR', 'Invalid API key', m);
      return;
    }
    if (c.account !== account && c.orders) {
      c.orders = false;
      syncOrderListener();
    }
    c.account = account;
    c.cancelGrace?.();
    c.cancelGrace = undefined;
    sendJson(c, {
      type: 'auth',
      status: 'success',
      message: 'Authentication successful',
      broker: FEED_BROKER,
      user_id: account,
      supported_features: { ltp: true, quote: true, depth: true },
    });
  }

  function ping(c: Conn, m: Json): void {
    const body: Json = { type: 'pong', status: 'success', server_timestamp: clock.now() };
    if (m.timestamp !== undefined) body.client_timestamp = m.timestamp;
    if (m._pingId !== undefined) body._pingId = m._pingId;
    sendJson(c, body);
  }

  function onMessage(c: Conn, raw: RawData): void {
    let parsed: unknown;
    const text = Buffer.isBuffer(raw)
      ? raw.toString('utf8')
      : Buffer.concat(raw as Buffer[]).toString('utf8');
    try {
      parsed = JSON.parse(text);
    } catch {
      return sendError(c, 'INVALID_JSON', 'Invalid JSON message');
    }
    if (!isObject(parsed)) return sendError(c, 'INVALID_PARAMETERS', 'A message must be a JSON object');
    const m = floatModeMarked(parsed, text);
    const action = m.action ?? m.type;
    if (action === 'authenticate' || action === 'auth') return authenticate(c, m);
    if (action === 'ping') return ping(c, m);
    if (action === 'get_supported_brokers')
      return sendJson(c, { type: 'supported_brokers', status: 'success', brokers: [FEED_BROKER] });
    const known = [
      'subscribe',
      'unsubscribe',
      'unsubscribe_all',
      'subscribe_orders',
      'unsubscribe_orders',
      'get_broker_info',
    ];
    if (typeof action !== 'string' || !known.includes(action))
      return sendError(c, 'INVALID_ACTION', `Invalid action: ${action == null ? 'None' : String(action)}`, m);
    if (c.account === undefined) return sendError(c, 'NOT_AUTHENTICATED', 'You must authenticate first', m);
    switch (action) {
      case 'subscribe':
        subscribe(marketActions, c, m);
        // The first topic starts the tick again.
        return armTimers();
      case 'unsubscribe':
        return unsubscribe(marketActions, c, m, m.type === 'unsubscribe_all');
      case 'unsubscribe_all':
        return unsubscribe(marketActions, c, m, true);
      case 'subscribe_orders':
        c.orders = true;
        syncOrderListener();
        return sendJson(
          c,
          withRequestId(m, {
            type: 'subscribe_orders',
            status: 'success',
            message: 'Subscribed to order updates',
          }),
        );
      case 'unsubscribe_orders':
        c.orders = false;
        syncOrderListener();
        return sendJson(
          c,
          withRequestId(m, {
            type: 'unsubscribe_orders',
            status: 'success',
            message: 'Unsubscribed from order updates',
          }),
        );
      default:
        return sendJson(c, {
          type: 'broker_info',
          status: 'success',
          broker: FEED_BROKER,
          adapter_status: 'connected',
          supported_features: { ltp: true, quote: true, depth: true },
        });
    }
  }

  // ---- connections ----

  function onConnection(ws: WebSocket): void {
    const c: Conn = {
      ws,
      account: undefined,
      subs: new Set(),
      orders: false,
      alive: true,
      cancelGrace: undefined,
    };
    conns.add(c);
    armTimers();
    c.cancelGrace = clock.setTimer(() => {
      c.cancelGrace = undefined;
      if (c.account === undefined && ws.readyState === WebSocket.OPEN) ws.close(4401, 'auth timeout');
    }, opts.authGraceMs);
    ws.on('message', (raw) => {
      try {
        onMessage(c, raw);
      } catch (err) {
        sendError(c, 'SERVER_ERROR', err instanceof Error ? err.message : String(err));
      }
    });
    ws.on('pong', () => (c.alive = true));
    ws.on('close', () => drop(c));
    ws.on('error', () => drop(c));
  }

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, path: string | undefined): void {
    socket.on('error', () => socket.destroy());
    const url = (req.url ?? '/').split('?')[0]?.replace(/\/+$/, '') || '/';
    if (closed) return refuseUpgrade(socket, 503, 'Service Unavailable');
    if (path !== undefined && url !== path) return refuseUpgrade(socket, 404, 'Not Found');
    if (!originAllowed(req.headers.origin, req.headers.host)) return refuseUpgrade(socket, 403, 'Forbidden');
    wss.handleUpgrade(req, socket, head, onConnection);
  }

  // ---- timers ----
  // Armed only while someone is connected, and the tick only while a topic has a subscriber: an idle
  // gateway (and a test's manual clock moved by a day) runs no feed timers at all, and a core that
  // follows only order updates (the app in the tray) is not woken four times a second for nothing.

  let cancelTick: (() => void) | undefined;
  let cancelPing: (() => void) | undefined;

  function tick(): void {
    cancelTick = undefined;
    if (closed || conns.size === 0 || topics.size === 0) return;
    try {
      topics.publish();
    } catch (err) {
      console.error('paper feed: tick failed', err);
    }
    cancelTick = clock.setTimer(tick, opts.tickMs);
  }

  function heartbeat(): void {
    cancelPing = undefined;
    if (closed || conns.size === 0) return;
    for (const c of [...conns]) {
      if (!c.alive) {
        drop(c);
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
    cancelPing = clock.setTimer(heartbeat, opts.pingIntervalMs);
  }

  function armTimers(): void {
    cancelTick ??= clock.setTimer(tick, opts.tickMs);
    cancelPing ??= clock.setTimer(heartbeat, opts.pingIntervalMs);
  }

  return {
    attach(server, path = FEED_PATH) {
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
        onUpgrade(req, socket, head, path),
      );
    },
    listen(host, port) {
      const server = createServer((_req, res) => {
        res.writeHead(426, { 'Content-Type': 'text/plain' }).end('WebSocket feed: connect with ws://');
      });
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
        onUpgrade(req, socket, head, undefined),
      );
      ownServers.push(server);
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const a = server.address();
          resolve(typeof a === 'object' && a ? a.port : port);
        });
      });
    },
    stats: () => ({
      clients: conns.size,
      authenticated: [...conns].filter((c) => c.account !== undefined).length,
      orderSubscribers: [...conns].filter((c) => c.orders).length,
      dropped: stats.dropped,
      peakBuffered: stats.peakBuffered,
      messagesSent: stats.messagesSent,
    }),
    async close() {
      if (closed) return;
      closed = true;
      cancelTick?.();
      cancelPing?.();
      syncOrderListener();
      for (const c of [...conns]) {
        drop(c);
        c.ws.close(1001, 'server stopping');
        c.ws.terminate();
      }
      wss.close();
      await Promise.all(
        ownServers.filter((s) => s.listening).map((s) => new Promise<void>((r) => s.close(() => r()))),
      );
    },
  };
}
