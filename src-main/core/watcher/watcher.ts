// Over 300 lines: one poll loop over four books, the feed's order updates and their one seen state.
// The watcher: polls the order book (and, when something moved or the window is visible, positions,
// funds and trades) within the client's shared rate budget, turns differences into events exactly
// once, and settles unknown outcomes from the book. One poll runs at a time; the seen state is
// stored before the events go out, so a crash cannot make an old fill news again.
import {
  errorMessage,
  type ConnectionEvent,
  type OrderBookResponse,
  type OrderSnapshot,
  type PollingIntervals,
  type PositionView,
  type WsOrderUpdate,
} from '../../contract/index.js';
import type { WatcherViews } from '../../contract/index.js';
import type { Clock, GatewayClient, GatewayError } from '../../gateway/index.js';
import type { Logger } from '../ports.js';
import type { Emit } from '../router/event-bus.js';
import { toFundsView, toOrdersView, toPositionsView, toTradesView } from './book-views.js';
import { feedOrderRecord } from './feed-order.js';
import { createLtpSource } from './ltp-source.js';
import { diffOrderBook, isActive, type OrderChange, type SeenOrder } from './order-diff.js';
import { pollInterval } from './poll-interval.js';
import { diffPositions } from './position-diff.js';
import type { Patience, PendingUnknown, Resolution, Undecided, UnknownIntent } from './reconciler.js';
import type { SeenStore } from './seen-store.js';
import { createUnknownTracker } from './unknown-tracker.js';

export type WatcherClient = Pick<
  GatewayClient,
  'orderbook' | 'positionbook' | 'funds' | 'tradebook' | 'multiquotes' | 'depth'
>;

export interface WatcherOptions {
  profileId: string;
  client: WatcherClient;
  clock: Clock;
  store: SeenStore;
  /** Read on every scheduling decision, so a settings change applies at once. */
  polling: () => PollingIntervals;
  emit: Emit;
  logger: Logger;
  patience?: Patience;
  /** Secondary books are read at least every this many polls even when nothing moved (default 5). */
  fullReadEvery?: number;
  visible?: boolean;
  /**
   * Unknown outcomes an earlier watcher of this profile had not settled yet (a profile switch), or
   * that the journal still holds unresolved (a restart).
   */
  pending?: readonly PendingUnknown[];
  /**
   * Makes a settled outcome durable before its event goes out (the journal). False: it was settled
   * already, so there is nothing to report. A throw is logged and the event still goes out.
   */
  resolved?: (r: Resolution) => boolean;
  /**
   * An interrupted action the book cannot settle alone (more than one order could be its): no longer
   * tracked, left unresolved in the journal; the trader is asked to check the book.
   */
  undecided?: (u: Undecided) => void;
}

export interface Watcher {
  readonly profileId: string;
  start(): void;
  /** Stops polling; a poll in flight ends without saving or reporting (resolves when it has). */
  stop(): Promise<void>;
  /** Polls now (after any poll in flight) and resolves when done. */
  pollNow(): Promise<void>;
  /**
   * An order_update from the gateway's feed: reported at once, through the same seen state as the
   * polls (exactly once across both, and across restarts); the books are then read again.
   */
  applyOrderUpdate(update: WsOrderUpdate): void;
  /** The feed is live (polling slows to a safety net) or not (polling as usual, at once). */
  setFeedLive(live: boolean): void;
  /** Returns the polling interval that now applies. */
  setVisibility(visible: boolean): number;
  /** A mutation whose outcome is unknown: settle it from the order book. */
  /** `known`: order ids in the book before the call was sent (a placed order is a new one). */
  trackUnknown(journalId: string, intent: UnknownIntent, known: ReadonlySet<string>, message?: string): void;
  /** Order ids seen in the book so far. */
  knownOrderIds(): Set<string>;
  /**
   * Ids of the account's orders open or trigger pending at the last read of the book, whatever their
   * strategy: the gateway's cancel-all cancels them all.
   */
  openOrderIds(): string[];
  /** Unknown outcomes not settled yet, for the profile's next watcher. */
  pendingUnknowns(): PendingUnknown[];
  /** Unknown outcomes read back from the journal while running (interrupted calls come of age). */
  adoptPending(more: readonly PendingUnknown[]): void;
  /** The books as last read (null until read) and the connection (`connecting` until an answer). */
  views(): WatcherViews;
  /** Last prices known (by `exchange:symbol`), without a request. */
  lastPrices(): Map<string, number>;
  positions(): PositionView[];
  openOrders(): number;
  connection(): ConnectionEvent['state'];
  interval(): number;
}

type ConnectionState = ConnectionEvent['state'];

function connectionOf(error: GatewayError): ConnectionState {
  if (error.kind === 'no_key') return 'no_key';
  if (error.kind === 'unauthorised' || error.kind === 'forbidden') return 'unauthorised';
  return 'disconnected';
}

export function createWatcher(o: WatcherOptions): Watcher {
  const { profileId, client, clock, store, emit, logger } = o;
  const fullReadEvery = o.fullReadEvery ?? 5;
  const ltp = createLtpSource(client);
  const seen = store.load(profileId);
  let seenOrders: Map<string, SeenOrder> | undefined = seen.orders;
  let seenPositions: Map<string, number> | undefined = seen.positions;
  const unknowns = createUnknownTracker({
    profileId,
    clock,
    emit,
    logger,
    patience: o.patience,
    pending: o.pending,
    resolved: o.resolved,
    undecided: o.undecided,
  });
  let visible = o.visible ?? false;
  let running = false;
  /**
   * Set by stop(): a poll still in flight then ends without saving or reporting anything, so a newer
   * watcher of the same profile (a quick switch away and back) is the only one to report its changes.
   */
  let retired = false;
  let cancelTimer: (() => void) | undefined;
  let chain: Promise<void> = Promise.resolve();
  let seq = 0;
  let failures = 0;
  let round = 0;
  let open = 0;
  let state: ConnectionState | undefined;
  let feedLive = false;
  /** The feed reported an order change since the last poll began: the books are read in full. */
  let feedMoved = false;
  /** The first successful poll of this watcher reads every book (the UI has nothing yet). */
  let fresh = true;
  let views: PositionView[] = [];
  let lastOrders: OrderSnapshot[] = [];
  /** The books as last read, for `session.snapshot`. */
  const books: Omit<WatcherViews, 'connection'> = {
    orders: null,
    trades: null,
    positions: null,
    funds: null,
  };
  const last = { orders: '', trades: '', positions: '', funds: '' };

  const interval = () =>
    pollInterval(o.polling(), {
      visible,
      busy: open > 0 || unknowns.size() > 0,
      failures,
      // Unknown outcomes are settled from the book only: they keep the fast pace, feed or not.
      feedLive: feedLive && unknowns.size() === 0,
    });

  function setState(next: ConnectionState, message?: string): void {
    if (state === next) return;
    state = next;
    emit('session.connection', {
      profileId,
      time: clock.now(),
      state: next,
      ...(message ? { message } : {}),
    });
  }

  /** Keeps a book's view and emits its books.* event only when it differs from the last one. */
  function publish<K extends keyof typeof books>(
    kind: K,
    view: NonNullable<(typeof books)[K]>,
    send: () => void,
  ): void {
    books[kind] = view;
    const text = JSON.stringify(view);
    if (text === last[kind]) return;
    last[kind] = text;
    send();
  }

  function emitChanges(changes: readonly OrderChange[], now: number): void {
    for (const c of changes) {
      const base = { profileId, time: now, order: c.order };
      if (c.type === 'orders.partial' || c.type === 'orders.filled')
        emit(c.type, { ...base, lastFillQuantity: c.lastFillQuantity });
      else if (c.type === 'orders.rejected') emit(c.type, { ...base, reason: c.reason });
      else if (c.type === 'orders.modified') emit(c.type, { ...base, previous: c.previous });
      else emit(c.type, base);
    }
  }

  function applyOrderUpdate(u: WsOrderUpdate): void {
    if (retired) return;
    // No baseline yet: the first read of the book makes it (history at start-up is not news).
    if (!seenOrders) {
      pollSoon();
      return;
    }
    const now = clock.now();
    const row = feedOrderRecord(
      u,
      lastOrders.find((s) => s.orderid === u.orderid),
      now,
    );
    const diff = diffOrderBook(seenOrders, [row]);
    if (diff.updates.size === 0) return;
    // Stored before the events go out, as a poll's; every order seen so far stays remembered.
    store.saveOrders(profileId, diff.updates, now, new Set([...seenOrders.keys(), u.orderid]));
    seenOrders = new Map([...seenOrders, ...diff.updates]);
    emitChanges(diff.changes, now);
    // The books (positions, funds, trades, the order's row) follow from a read.
    if (diff.changes.length > 0) {
      feedMoved = true;
      pollSoon();
    }
  }

  function applyOrders(book: OrderBookResponse['data'], pollSeq: number): boolean {
    const now = clock.now();
    const view = toOrdersView(book);
    const snaps = view.orders;
    const diff = diffOrderBook(seenOrders, book.orders);
    if (diff.updates.size > 0 || !seenOrders) {
      store.saveOrders(profileId, diff.updates, now, new Set(snaps.map((s) => s.orderid)));
      seenOrders = new Map([...(seenOrders ?? []), ...diff.updates]);
    }
    emitChanges(diff.changes, now);
    open = snaps.filter((s) => isActive(s.status)).length;
    lastOrders = snaps;
    unknowns.settle(snaps, pollSeq, now);
    publish('orders', view, () => emit('books.orders', { profileId, view }));
    return diff.changes.length > 0;
  }

  async function readPositions(withQuotes: boolean): Promise<void> {
    const r = await client.positionbook();
    if (!r.ok || retired) return;
    const rows = r.value.data;
    const open = rows.filter((p) => p.quantity !== 0);
    const ltps = withQuotes && open.length > 0 ? await ltp.refresh(open) : ltp.known();
    if (retired) return;
    const view = toPositionsView(rows, ltps);
    views = view.positions;
    const { changes, next } = diffPositions(seenPositions, views);
    const moved = !seenPositions || changes.length > 0;
    if (moved) store.savePositions(profileId, next);
    seenPositions = next;
    const now = clock.now();
    for (const c of changes) emit('positions.changed', { profileId, time: now, ...c });
    publish('positions', view, () => emit('books.positions', { profileId, view }));
  }

  async function readFunds(): Promise<void> {
    const r = await client.funds();
    if (!r.ok || retired) return;
    const view = toFundsView(r.value.data);
    publish('funds', view, () => emit('books.funds', { profileId, view }));
  }

  /** A trades read that failed after the orders moved: the next poll reads them again. */
  let tradesOwed = false;
  async function readTrades(): Promise<void> {
    const r = await client.tradebook();
    if (retired) return;
    tradesOwed = !r.ok;
    if (!r.ok) return;
    const view = toTradesView(r.value.data);
    publish('trades', view, () => emit('books.trades', { profileId, view }));
  }

  async function pollOnce(): Promise<void> {
    const pollSeq = ++seq;
    // Taken before the read: a poll already under way when the feed spoke may predate its change.
    const fromFeed = feedMoved;
    feedMoved = false;
    const r = await client.orderbook();
    if (retired) return;
    if (!r.ok) {
      feedMoved ||= fromFeed;
      failures += 1;
      setState(connectionOf(r.error), r.error.message);
      return;
    }
    failures = 0;
    setState('connected');
    const first = fresh || !seenPositions;
    fresh = false;
    const moved = applyOrders(r.value.data, pollSeq) || fromFeed;
    round += 1;
    const periodic = round % fullReadEvery === 0;
    if (first || moved || visible || periodic) {
      await readPositions(first || moved || visible || periodic);
      await readFunds();
    }
    if (first || moved || tradesOwed || (visible && periodic)) await readTrades();
  }

  function schedule(delayMs = interval()): void {
    cancelTimer?.();
    cancelTimer = undefined;
    if (!running) return;
    cancelTimer = clock.setTimer(() => {
      cancelTimer = undefined;
      void pollNow().finally(() => schedule());
    }, delayMs);
  }

  /** The next poll now rather than after the (slow, feed-live) interval; many calls make one poll. */
  let soon = false;
  function pollSoon(): void {
    if (soon || !running) return;
    soon = true;
    schedule(0);
    void Promise.resolve().then(() => (soon = false));
  }

  function pollNow(): Promise<void> {
    const run = () =>
      pollOnce().catch((err: unknown) => {
        logger.error('watcher poll failed', {
          profileId,
          error: errorMessage(err),
        });
      });
    chain = chain.then(run, run);
    return chain;
  }

  return {
    profileId,
    start() {
      if (running) return;
      running = true;
      retired = false;
      schedule();
    },
    async stop() {
      running = false;
      retired = true;
      cancelTimer?.();
      cancelTimer = undefined;
      await chain;
    },
    pollNow,
    applyOrderUpdate,
    setFeedLive(live) {
      if (live === feedLive) return;
      feedLive = live;
      // Down: whatever the feed would have said is read from the book at once.
      schedule(live ? interval() : 0);
    },
    setVisibility(v) {
      const was = visible;
      visible = v;
      // Becoming visible should not wait out a slow tray interval.
      if (v !== was) schedule();
      return interval();
    },
    trackUnknown(journalId, intent, known, message) {
      // Only a read that starts after this answer can show its effect.
      unknowns.track(journalId, intent, known, message, seq + 1);
      schedule();
    },
    knownOrderIds: () => new Set(seenOrders?.keys() ?? []),
    openOrderIds: () => lastOrders.filter((s) => isActive(s.status)).map((s) => s.orderid),
    pendingUnknowns: () => unknowns.list(),
    adoptPending(more) {
      if (unknowns.adopt(more, seq + 1)) schedule();
    },
    views: () => ({ connection: state ?? 'connecting', ...books }),
    lastPrices: () => ltp.known(),
    positions: () => [...views],
    openOrders: () => open,
    connection: () => state ?? 'disconnected',
    interval,
  };
}
