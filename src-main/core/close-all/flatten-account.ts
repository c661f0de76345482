// The account guard's flatten (issue 26): account-wide, every strategy's and every client's orders.
// Each round (1) cancels every working order one by one (open and trigger pending: upstream's
// cancel-all skips trigger-pending ones) from the order book read now, after one cancel-all in the
// first round when several work, (2) closes every open position
// with MARKET orders the other way, in slices of at most the instrument's freeze quantity (upstream's
// `closeposition` does not split), product as the position's, and (3) reads both books back; anything
// still working or open starts another round after `resquareMs`, until flat or `stop()`.
//
// Exactly once: an exit is counted against its position until the book shows it final, and one whose
// answer was lost covers its position until the book settles it (exit-ledger.ts), so the exits of a
// position never add up to more than was open. The order book is read before the position book: an
// exit that fills between the two reads is then counted twice (covering, and gone from the position),
// never zero times.
import type { IpcResult, OrderRecord, PositionRecord } from '../../contract/index.js';
import { errorMessage } from '../../contract/index.js';
import type { GatewayClient } from '../../gateway/index.js';
import { formatQty } from '../../shared/format.js';
import { isWorking } from '../../shared/order-status.js';
import { createExitLedger, positionKey, type ExitLedger, type ExitOrder } from './exit-ledger.js';
import type { Read, WorkingOrder } from './fresh-books.js';
import { slicesOf, type SliceLimit } from './slice-limit.js';

export type { ExitOrder } from './exit-ledger.js';

export interface FlattenProgress {
  state: 'running' | 'flat' | 'stopped';
  rounds: number;
  text: string;
}
export interface FlattenOutcome {
  state: 'flat' | 'stopped';
  rounds: number;
  text: string;
}
export interface FlattenRun {
  done: Promise<FlattenOutcome>;
  stop(): void;
}

export interface FlattenDeps {
  /**
   * The gateway's books read now, never the watcher's last poll: the active session's client in the
   * order lane (`session.client.withPriority('order')`), so reads share the profile's rate budget.
   */
  books: Pick<GatewayClient, 'orderbook' | 'positionbook'>;
  /**
   * One journalled `placeorder` through the router's order path (journal before the send, an unknown
   * outcome handed to the watcher). Slices of one position are equal orders by design: it must not
   * be held back by the duplicate guard (`confirmDuplicate: true`).
   */
  place(order: ExitOrder): Promise<IpcResult<{ orderid: string }>>;
  /** One journalled `cancelorder` of the order (its strategy where the book states one). */
  cancel(order: WorkingOrder): Promise<IpcResult<unknown>>;
  /**
   * One journalled `cancelallorder` (account-wide at the gateway). Sent in the first round only, before
   * any exit exists, when several orders work: the book is read again and what it left (upstream skips
   * trigger-pending orders) is cancelled one by one. Without it, every order is cancelled singly.
   */
  cancelAll?(): Promise<IpcResult<unknown>>;
  /** The largest quantity one order of an instrument may carry (createSliceLimit: cached `symbol` reads). */
  sliceLimit: SliceLimit;
  /** Epoch ms, for how long an unknown outcome has waited. */
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Told at each step; the last call carries the outcome's state. */
  progress?(p: FlattenProgress): void;
  /** The wait before re-squaring what a round left (default 3000 ms). */
  resquareMs?: number;
  /**
   * How long an exit or cancel whose outcome is unknown waits for the book to show it (and two book
   * reads) before it counts as not placed (default 5000 ms, the watcher's patience).
   */
  patienceMs?: number;
  /** Verification reads a round makes before it waits to re-square, and the wait between them (3, 300 ms). */
  verifyReads?: number;
  verifyWaitMs?: number;
}

interface CancelTry {
  at: number;
  outcome: 'accepted' | 'unknown' | 'refused';
}

interface Books {
  orders: OrderRecord[];
  positions: PositionRecord[];
}

const describe = (p: PositionRecord) => `${p.symbol} ${p.quantity > 0 ? '+' : ''}${formatQty(p.quantity)}`;

export function startFlatten(d: FlattenDeps): FlattenRun {
  const resquareMs = d.resquareMs ?? 3000;
  const patienceMs = d.patienceMs ?? 5000;
  const verifyReads = Math.max(1, d.verifyReads ?? 3);
  const verifyWaitMs = d.verifyWaitMs ?? 300;
  const ledger: ExitLedger = createExitLedger(patienceMs);
  const cancels = new Map<string, CancelTry>();
  let rounds = 0;
  let stopped = false;
  let wake: () => void = () => undefined;
  const stopSignal = new Promise<void>((resolve) => (wake = resolve));

  const report = (text: string) => d.progress?.({ state: 'running', rounds, text });
  /** Waits `ms`, or less when stopped. */
  const pause = (ms: number) => Promise.race([d.sleep(ms), stopSignal]);

  async function readOrders(): Promise<Read<OrderRecord[]>> {
    try {
      const r = await d.books.orderbook();
      return r.ok ? { ok: true, value: r.value.data.orders } : { ok: false, message: r.error.message };
    } catch (err) {
      return { ok: false, message: errorMessage(err) };
    }
  }
  async function readPositions(): Promise<Read<PositionRecord[]>> {
    try {
      const r = await d.books.positionbook();
      return r.ok ? { ok: true, value: r.value.data } : { ok: false, message: r.error.message };
    } catch (err) {
      return { ok: false, message: errorMessage(err) };
    }
  }
  /** Both books, the order book first (see the top of the file). */
  async function readBooks(): Promise<Read<Books>> {
    const orders = await readOrders();
    if (!orders.ok) return { ok: false, message: `order book not read: ${orders.message}` };
    const positions = await readPositions();
    if (!positions.ok) return { ok: false, message: `position book not read: ${positions.message}` };
    return { ok: true, value: { orders: orders.value, positions: positions.value } };
  }

  /** Whether the order needs a cancel sent now: none yet, one refused, or one long unanswered by the book. */
  function wantsCancel(orderid: string): boolean {
    const t = cancels.get(orderid);
    return !t || t.outcome === 'refused' || d.now() - t.at >= patienceMs;
  }

  /**
   * (0) The first round's cancel-all, when several orders work: the order book as read after it, or the
   * one given when it was not sent or not read.
   */
  async function cancelAllFirst(orders: OrderRecord[]): Promise<OrderRecord[]> {
    const working = orders.filter((o) => isWorking(o.order_status));
    if (!d.cancelAll || rounds !== 1 || working.length < 2 || stopped) return orders;
    report(`Round ${rounds}: cancelling all working orders at once`);
    await d.cancelAll();
    const again = await readOrders();
    return again.ok ? again.value : orders;
  }

  /** (1) Every working order but the flatten's own exits, one by one. */
  async function cancelWorking(orders: readonly OrderRecord[]): Promise<string[]> {
    const notes: string[] = [];
    const working = orders.filter((o) => isWorking(o.order_status) && !ledger.isExit(o.orderid));
    const todo = working.filter((o) => wantsCancel(o.orderid));
    let done = 0;
    for (const o of todo) {
      if (stopped) break;
      const r = await d.cancel({
        orderid: o.orderid,
        symbol: o.symbol,
        status: o.order_status,
        ...(o.strategy ? { strategy: o.strategy } : {}),
      });
      const outcome = r.ok ? 'accepted' : r.error.kind === 'unknown_outcome' ? 'unknown' : 'refused';
      cancels.set(o.orderid, { at: d.now(), outcome });
      done++;
      if (!r.ok) notes.push(`cancel of ${o.orderid} ${o.symbol} ${outcome}: ${r.error.message}`);
      report(`Round ${rounds}: cancelling working orders (${done} of ${todo.length} sent)`);
    }
    return notes;
  }

  /**
   * (2) What each open position still needs, in freeze-sized MARKET slices, all sent at once: the
   * client paces them within the profile's rate budget, and each is in the ledger by its own answer.
   */
  async function closeOpen(orders: readonly OrderRecord[], positions: readonly PositionRecord[]) {
    const notes: string[] = [];
    const known = new Set(orders.map((o) => o.orderid));
    const exits: ExitOrder[] = [];
    for (const p of positions) {
      if (!Number.isFinite(p.quantity) || p.quantity === 0) continue;
      const action: ExitOrder['action'] = p.quantity > 0 ? 'SELL' : 'BUY';
      const left = Math.abs(p.quantity) - ledger.covering(positionKey(p), action, orders);
      if (left <= 0) continue;
      const limit = await d.sliceLimit(p.exchange, p.symbol);
      if (!limit.ok) {
        notes.push(limit.message);
        continue;
      }
      for (const quantity of slicesOf(left, limit.value))
        exits.push({
          exchange: p.exchange,
          symbol: p.symbol,
          product: p.product,
          action,
          quantity,
          pricetype: 'MARKET',
        });
    }
    let sent = 0;
    await Promise.all(
      exits.map(async (order) => {
        if (stopped) return;
        const r = await d.place(order);
        sent++;
        if (r.ok) ledger.accepted(order, r.value.orderid);
        else if (r.error.kind === 'unknown_outcome') ledger.inDoubt(order, known, d.now());
        // A refused slice leaves its quantity open for the next round, which reads what is still open.
        if (!r.ok)
          notes.push(`${order.action} ${formatQty(order.quantity)} ${order.symbol}: ${r.error.message}`);
        report(`Round ${rounds}: closing positions (${sent} of ${exits.length} exit orders answered)`);
      }),
    );
    return notes;
  }

  /** (3) Both books read back until they show nothing working and nothing open; what is left, else ''. */
  async function verify(): Promise<string> {
    let left = '';
    for (let i = 0; i < verifyReads && !stopped; i++) {
      if (i > 0) await pause(verifyWaitMs);
      const books = await readBooks();
      if (!books.ok) {
        left = books.message;
        continue;
      }
      const working = books.value.orders.filter((o) => isWorking(o.order_status));
      const open = books.value.positions.filter((p) => p.quantity !== 0);
      left = [
        ...(open.length ? [`${open.length} open (${open.slice(0, 5).map(describe).join(', ')})`] : []),
        ...(working.length ? [`${working.length} working`] : []),
      ].join(', ');
      if (!left) return '';
    }
    return left || 'not verified';
  }

  /** Reads the freeze quantity of each open position ahead of need; failures are asked again later. */
  async function warmSliceLimits(): Promise<void> {
    const positions = await readPositions();
    if (!positions.ok) return;
    const open = positions.value.filter((p) => p.quantity !== 0);
    await Promise.all(open.map((p) => d.sliceLimit(p.exchange, p.symbol).catch(() => undefined)));
  }

  async function round(): Promise<string> {
    rounds++;
    report(`Round ${rounds}: reading the order book`);
    const orders = await readOrders();
    if (!orders.ok) return `order book not read: ${orders.message}`;
    const settled = ledger.settle(orders.value, d.now());
    // The freeze quantities are read while the cancels go out (another rate window): not awaited.
    void warmSliceLimits();
    const notes = await cancelWorking(await cancelAllFirst(orders.value));
    if (stopped) return 'stopped';
    report(`Round ${rounds}: reading the positions`);
    const positions = await readPositions();
    if (!positions.ok) return `position book not read: ${positions.message}`;
    notes.push(...(await closeOpen(orders.value, positions.value)));
    if (stopped) return 'stopped';
    report(`Round ${rounds}: verifying: reading the order book and positions back`);
    const left = await verify();
    if (!left) return '';
    const doubt = ledger.doubtful();
    return [
      `still ${left}`,
      ...(doubt ? [`${doubt} exit(s) in doubt, waiting for the book`] : []),
      ...(settled.notPlaced ? [`${settled.notPlaced} exit(s) in doubt found not placed`] : []),
      ...notes.slice(0, 3),
    ].join('; ');
  }

  async function run(): Promise<FlattenOutcome> {
    let last = '';
    while (!stopped) {
      try {
        last = await round();
      } catch (err) {
        last = `round failed: ${errorMessage(err)}`;
      }
      if (!last) {
        const text = `Flat after ${rounds} round${rounds === 1 ? '' : 's'}: no position open, no order working`;
        d.progress?.({ state: 'flat', rounds, text });
        return { state: 'flat', rounds, text };
      }
      if (stopped) break;
      report(`Round ${rounds}: ${last}; re-squaring in ${Math.round(resquareMs / 100) / 10} s`);
      await pause(resquareMs);
    }
    const text = `Stopped after ${rounds} round${rounds === 1 ? '' : 's'}${last && last !== 'stopped' ? `: ${last}` : ''}`;
    d.progress?.({ state: 'stopped', rounds, text });
    return { state: 'stopped', rounds, text };
  }

  return {
    // Started on the next tick: `progress` may already refer to the run this returns.
    done: Promise.resolve().then(run),
    stop() {
      stopped = true;
      wake();
    },
  };
}
