// The client of a gateway's WebSocket feed (gateway-behaviour §13): connects, authenticates in the
// first message (the key is never in the URL, never logged), subscribes what it is told to follow
// (market symbols × mode, order updates), and after any drop reconnects with backoff, then
// authenticates and subscribes again. It only reports: the core decides what a tick or an
// order_update means, and polls whenever this says it is not live.
import { WebSocket } from 'ws';
import {
  WsAuthMessage,
  WsError,
  WsMarketData,
  WsOrderUpdate,
  WsPong,
  type WsMarketData as MarketData,
  type WsOrderUpdate as OrderUpdate,
} from '../contract/index.js';
import type { Clock } from './clock.js';
import { feedUrlProblem } from './feed-url.js';

/** `live`: authenticated and subscribed; anything else means "poll instead". */
export type FeedState = 'connecting' | 'live' | 'down' | 'closed';

export interface FeedStatus {
  state: FeedState;
  /** Why it is down (an error code or close code, never the key). */
  reason?: string;
}

export type FeedMode = 1 | 2 | 3;
export interface FeedSymbol {
  symbol: string;
  exchange: string;
  mode: FeedMode;
}

export interface FeedClientOptions {
  url: string;
  /** The key, read at each (re)connection; undefined: no key, stay down until asked again. */
  getApiKey: () => Promise<string | undefined>;
  clock: Clock;
  /** Reconnect after base × 2^(attempt − 1), up to max (default 500 ms … 30 s). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /**
   * Checked this often: silent for this long, a `ping` is sent; silent for twice as long, the
   * connection is dead (default 25 s). A server's own WebSocket pings count as heard, so a server
   * that pings every 20 s (the paper gateway; Python `websockets`' default) is never pinged back:
   * fewer wake-ups of the always-on app, each side. The book poll covers the time a dead feed takes
   * to be noticed.
   */
  heartbeatMs?: number;
  /** No `auth` answer within this long after opening: reconnect (default 10 s). */
  authTimeoutMs?: number;
}

export interface FeedClient {
  readonly url: string;
  status(): FeedStatus;
  /** Follow exactly these (symbol, exchange, mode) from now on; unchanged ones are not resent. */
  setSymbols(symbols: readonly FeedSymbol[]): void;
  /** Ask for order updates (on by default). */
  setOrders(on: boolean): void;
  onOrderUpdate(listener: (update: OrderUpdate) => void): () => void;
  onMarketData(listener: (tick: MarketData) => void): () => void;
  onStatus(listener: (status: FeedStatus) => void): () => void;
  /** Closes for good (a profile switch): no reconnection. */
  close(): void;
}

const keyOf = (s: { symbol: string; exchange: string; mode: number }) =>
  `${s.exchange}:${s.symbol}:${s.mode}`;

export function createFeedClient(o: FeedClientOptions): FeedClient {
  const problem = feedUrlProblem(o.url);
  if (problem) throw new Error(problem);
  const { clock } = o;
  const retryBase = o.retryBaseMs ?? 500;
  const retryMax = o.retryMaxMs ?? 30_000;
  const heartbeatMs = o.heartbeatMs ?? 25_000;
  const authTimeoutMs = o.authTimeoutMs ?? 10_000;

  const orderListeners = new Set<(u: OrderUpdate) => void>();
  const tickListeners = new Set<(t: MarketData) => void>();
  const statusListeners = new Set<(s: FeedStatus) => void>();
  /** What should be followed, and what the current connection has been sent. */
  const wanted = new Map<string, FeedSymbol>();
  let sent = new Map<string, FeedSymbol>();
  let orders = true;
  let ordersSent = false;

  let status: FeedStatus = { state: 'connecting' };
  let ws: WebSocket | undefined;
  let attempt = 0;
  let closed = false;
  let lastHeard = 0;
  let cancelRetry: (() => void) | undefined;
  let cancelBeat: (() => void) | undefined;
  let cancelAuth: (() => void) | undefined;

  function setStatus(next: FeedStatus): void {
    if (next.state === status.state && next.reason === status.reason) return;
    status = next;
    for (const l of [...statusListeners]) l(next);
  }

  function send(body: unknown): void {
    if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(body));
  }

  function syncSubscriptions(): void {
    if (status.state !== 'live') return;
    const gone = [...sent.values()].filter((s) => !wanted.has(keyOf(s)));
    const added = [...wanted.values()].filter((s) => !sent.has(keyOf(s)));
    for (const s of gone)
      send({
        action: 'unsubscribe',
        symbols: [{ symbol: s.symbol, exchange: s.exchange, mode: s.mode }],
        mode: s.mode,
      });
    // One subscribe per mode, as the protocol takes one mode per message.
    for (const mode of [1, 2, 3] as const) {
      const list = added.filter((s) => s.mode === mode);
      if (list.length > 0)
        send({
          action: 'subscribe',
          mode,
          symbols: list.map((s) => ({ symbol: s.symbol, exchange: s.exchange })),
        });
    }
    sent = new Map(wanted);
    if (orders !== ordersSent) {
      send({ action: orders ? 'subscribe_orders' : 'unsubscribe_orders' });
      ordersSent = orders;
    }
  }

  function clearTimers(): void {
    cancelBeat?.();
    cancelAuth?.();
    cancelBeat = cancelAuth = undefined;
  }

  /** Stops the timers and forgets the socket (its late events ignored), then ends it with `end`. */
  function dropSocket(end: (socket: WebSocket) => void): void {
    clearTimers();
    const socket = ws;
    ws = undefined;
    if (!socket) return;
    socket.removeAllListeners();
    socket.on('error', () => undefined);
    end(socket);
  }

  function retryLater(reason: string): void {
    dropSocket((socket) => {
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)
        socket.terminate();
    });
    if (closed) return;
    setStatus({ state: 'down', reason });
    attempt++;
    const delay = Math.min(retryMax, retryBase * 2 ** Math.min(attempt - 1, 16));
    cancelRetry?.();
    cancelRetry = clock.setTimer(() => {
      cancelRetry = undefined;
      void connect();
    }, delay);
  }

  function heartbeat(): void {
    cancelBeat = clock.setTimer(() => {
      const silentMs = clock.now() - lastHeard;
      if (silentMs > 2 * heartbeatMs) return retryLater('no answer to ping');
      if (silentMs >= heartbeatMs) send({ action: 'ping' });
      heartbeat();
    }, heartbeatMs);
  }

  function onMessage(raw: string): void {
    lastHeard = clock.now();
    let m: unknown;
    try {
      m = JSON.parse(raw);
    } catch {
      return;
    }
    const type = (m as { type?: unknown }).type;
    if (type === 'order_update') {
      const u = WsOrderUpdate.safeParse(m);
      if (u.success) for (const l of [...orderListeners]) l(u.data);
      return;
    }
    if (type === 'market_data') {
      const t = WsMarketData.safeParse(m);
      if (t.success) for (const l of [...tickListeners]) l(t.data);
      return;
    }
    const auth = type === 'auth' ? WsAuthMessage.safeParse(m) : undefined;
    if (auth?.success && auth.data.status !== 'success') return retryLater('AUTHENTICATION_ERROR');
    if (auth?.success) {
      cancelAuth?.();
      cancelAuth = undefined;
      attempt = 0;
      sent = new Map();
      ordersSent = false;
      setStatus({ state: 'live' });
      syncSubscriptions();
      return;
    }
    if (type === 'pong' && WsPong.safeParse(m).success) return;
    const err = WsError.safeParse(m);
    // A refused key: reconnecting at once would only be refused again; the backoff spaces it out.
    if (err.success && (err.data.code === 'AUTHENTICATION_ERROR' || err.data.code === 'NOT_AUTHENTICATED'))
      retryLater(err.data.code);
  }

  async function connect(): Promise<void> {
    if (closed) return;
    setStatus({ state: attempt === 0 ? 'connecting' : 'down', reason: status.reason });
    const key = await o.getApiKey().catch(() => undefined);
    if (closed) return;
    if (!key) return retryLater('no key');
    const socket = new WebSocket(o.url, { handshakeTimeout: authTimeoutMs });
    ws = socket;
    socket.on('open', () => {
      lastHeard = clock.now();
      // The key goes in the first message only.
      socket.send(JSON.stringify({ action: 'authenticate', api_key: key }));
      cancelAuth = clock.setTimer(() => retryLater('no answer to authenticate'), authTimeoutMs);
      heartbeat();
    });
    socket.on('message', (data) => onMessage(String(data)));
    socket.on('ping', () => {
      if (ws === socket) lastHeard = clock.now();
    });
    socket.on('close', (code) => {
      if (ws === socket) retryLater(`closed (${code})`);
    });
    socket.on('error', (err: Error & { code?: string }) => {
      if (ws === socket) retryLater(err.code ?? 'connection error');
    });
  }

  void connect();

  return {
    url: o.url,
    status: () => status,
    setSymbols(symbols) {
      wanted.clear();
      for (const s of symbols) wanted.set(keyOf(s), { symbol: s.symbol, exchange: s.exchange, mode: s.mode });
      syncSubscriptions();
    },
    setOrders(on) {
      orders = on;
      syncSubscriptions();
    },
    onOrderUpdate(l) {
      orderListeners.add(l);
      return () => orderListeners.delete(l);
    },
    onMarketData(l) {
      tickListeners.add(l);
      return () => tickListeners.delete(l);
    },
    onStatus(l) {
      statusListeners.add(l);
      return () => statusListeners.delete(l);
    },
    close() {
      if (closed) return;
      closed = true;
      cancelRetry?.();
      dropSocket((socket) => {
        if (socket.readyState === WebSocket.OPEN) socket.close(1000, 'profile closed');
        else socket.terminate();
      });
      setStatus({ state: 'closed' });
    },
  };
}
