// The WebSocket side of window.bridge: each call frame goes to the core's router (which validates the
// channel and input exactly as IPC does) and its result comes back with the call's id; every core
// event goes to every page. Only router results and events cross, and neither ever holds a key. A
// page stands for the window: the first to open shows it to the core, the last to close hides it, and
// a page that goes away has its market subscriptions released.
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  BRIDGE_SOCKET_MAX_BYTES,
  type BridgeCallFrame,
  type BridgeHostFrame,
  type EventName,
  type EventPayload,
  type IpcResult,
  errorMessage,
} from '../contract/index.js';
import { createPageWatches, type Logger, type PageWatches } from '../core/index.js';
import { errorReply, parseCallFrame } from './call-frames.js';
import type { HostTiming } from './host-timing.js';

/** What the bridge needs of the core. */
export interface BridgeTarget {
  router: { invoke(channel: string, input?: unknown): Promise<IpcResult<unknown>> };
  events: { onAny(listener: <E extends EventName>(name: E, payload: EventPayload<E>) => void): () => void };
}

/**
 * The tray state comes from the shell (the TraySink), not the core's bus, so session.snapshot does not
 * hold it: the latest is sent to each page as it connects.
 */
const REPLAYED: readonly EventName[] = ['tray.state'];

/** Calls of one page the router works on at once; the socket is paused while more wait. */
export const BRIDGE_MAX_IN_FLIGHT = 256;

/** A page that stops reading is dropped past this much unsent data; its bridge reconnects. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface WsBridge {
  readonly server: WebSocketServer;
  /** Starts forwarding the core's events and answering calls. */
  bind(target: BridgeTarget): void;
  /** An event from the host itself (the tray state), sent like the core's. */
  publish<E extends EventName>(name: E, payload: EventPayload<E>): void;
  readonly connections: number;
  close(): Promise<void>;
}

export function createWsBridge(options: { logger: Logger; timing?: HostTiming | undefined }): WsBridge {
  const { logger, timing } = options;
  // noServer: the web host checks Host, Origin and the session cookie before handing an upgrade over.
  const server = new WebSocketServer({ noServer: true, maxPayload: BRIDGE_SOCKET_MAX_BYTES });
  const latest = new Map<EventName, string>();
  let target: BridgeTarget | undefined;
  let unsubscribe: (() => void) | undefined;
  let closing = false;

  /** Each page's TCP socket, and the turn's hold on it (see send). */
  const sockets = new WeakMap<WebSocket, Duplex>();
  const held = new WeakMap<WebSocket, object>();

  /** Lets the frames held this turn go, in one write. */
  function release(ws: WebSocket, hold: object): void {
    if (held.get(ws) !== hold) return;
    held.delete(ws);
    sockets.get(ws)?.uncork();
  }

  /**
   * Frames sent in one turn (a call's events, a burst of quotes) go out in one write, one system call,
   * not one each; a reply goes at once, with whatever the turn held before it (`now`).
   */
  function send(ws: WebSocket, text: string, now = false): void {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      logger.warn('page not reading its bridge; dropping the connection', { buffered: ws.bufferedAmount });
      ws.close(1013, 'too far behind');
      return;
    }
    const socket = sockets.get(ws);
    let hold = held.get(ws);
    if (socket && !hold && !now) {
      hold = {};
      held.set(ws, hold);
      socket.cork();
      const h = hold;
      process.nextTick(() => release(ws, h));
    }
    ws.send(text);
    if (now && hold) release(ws, hold);
  }

  function broadcast<E extends EventName>(name: E, payload: EventPayload<E>): void {
    const frame: BridgeHostFrame = { type: 'event', name, payload };
    const text = JSON.stringify(frame);
    if (REPLAYED.includes(name)) latest.set(name, text);
    for (const ws of server.clients) send(ws, text);
  }

  /** A call the host makes for no page (visibility, a gone page's unwatch): logged if refused. */
  function hostCall(channel: string, input: unknown): void {
    if (closing) return;
    void target?.router.invoke(channel, input).then(
      (r) => {
        if (!r.ok) logger.warn(`${channel} refused`, { message: r.error.message });
      },
      (err: unknown) => logger.error(`${channel} failed`, { error: errorMessage(err) }),
    );
  }

  async function answer(
    ws: WebSocket,
    watches: PageWatches,
    id: number,
    channel: string,
    input: unknown,
  ): Promise<void> {
    let frame: BridgeHostFrame;
    if (!target) frame = errorReply(id, 'OrderDesk is still starting; try again', 'internal');
    else {
      try {
        const result = await target.router.invoke(channel, input);
        watches.noted(channel, result);
        frame = { type: 'reply', id, result };
      } catch (err) {
        // The router answers errors as values; this is a bug, reported as one without its text.
        logger.error('bridge call failed', { channel, error: err instanceof Error ? err.name : typeof err });
        frame = errorReply(id, `${channel} failed inside OrderDesk`, 'internal');
      }
    }
    let text: string;
    try {
      text = JSON.stringify(frame);
    } catch (err) {
      // An unserialisable result is a bug in a handler: the call still gets its answer.
      logger.error('bridge reply could not be serialised', { channel, error: errorMessage(err) });
      text = JSON.stringify(errorReply(id, `${channel} answered something that cannot be sent`, 'internal'));
    }
    send(ws, text, true);
  }

  server.on('connection', (ws, req) => {
    sockets.set(ws, req.socket);
    let inFlight = 0;
    let badFrames = 0;
    /** Calls read while BRIDGE_MAX_IN_FLIGHT were running (the socket is paused meanwhile). */
    const queued: { frame: BridgeCallFrame; receivedAt: number }[] = [];
    /** The market subscriptions this page holds: gone, it cannot unwatch them itself. */
    const watches = createPageWatches();
    const run = (frame: BridgeCallFrame, receivedAt: number) => {
      inFlight++;
      const reply = () => answer(ws, watches, frame.id, frame.channel, frame.input);
      void (timing ? timing.measure(frame.channel, receivedAt, reply) : reply()).finally(() => {
        inFlight--;
        const next = queued.shift();
        if (next) run(next.frame, next.receivedAt);
        else if (ws.isPaused) ws.resume();
      });
    };
    // The page is the window: the first one to open shows it (polling at the window's pace; the page
    // reports hiding itself), the last one to close hides it, as a window in the tray.
    if (server.clients.size === 1) hostCall('watcher.setVisibility', { visible: true });
    for (const text of latest.values()) send(ws, text);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const receivedAt = performance.now();
      const bytes = Buffer.isBuffer(data)
        ? data
        : Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.from(data);
      const parsed = parseCallFrame(bytes, isBinary);
      if (!parsed.ok) {
        // Said once per page; a page sending garbage must not flood the log.
        if (badFrames++ === 0)
          logger.warn('page sent an invalid bridge frame', {
            reason: parsed.reply.result.ok ? '' : parsed.reply.result.error.message,
          });
        send(ws, JSON.stringify(parsed.reply));
        return;
      }
      if (inFlight < BRIDGE_MAX_IN_FLIGHT) return run(parsed.frame, receivedAt);
      // Backpressure, not refusal: stop reading (TCP holds the page's further calls back) and queue
      // what was already read; nothing is lost and memory stays bounded.
      queued.push({ frame: parsed.frame, receivedAt });
      ws.pause();
    });
    ws.on('error', (err) => logger.warn('bridge socket error', { error: err.message }));
    ws.on('close', () => {
      queued.length = 0;
      // A watch answered after this is released at once.
      watches.release((id) => hostCall('market.unwatch', { id }));
      if (server.clients.size === 0) hostCall('watcher.setVisibility', { visible: false });
      if (badFrames > 1) logger.warn('page sent invalid bridge frames', { count: badFrames });
    });
  });

  return {
    server,
    bind(t) {
      target = t;
      unsubscribe?.();
      unsubscribe = t.events.onAny(broadcast);
    },
    publish: broadcast,
    get connections() {
      return server.clients.size;
    },
    async close() {
      closing = true;
      unsubscribe?.();
      for (const ws of server.clients) ws.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
