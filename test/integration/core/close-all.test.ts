// Close all and cancel all in the core, against the real paper gateway, with no window: the order
// book is read from the gateway at the moment of the call (an order placed a moment before, which no
// poll has seen yet, is cancelled too), every working order is cancelled one by one (trigger-pending
// SL orders included, which upstream's cancelallorder skips on the real gateway), the positions are
// closed, and "flat" is said only once the gateway's books show it.
import { describe, expect, it } from 'vitest';
import type {
  CloseAllResult,
  IpcResult,
  OrdersView,
  PositionsView,
} from '../../../src-main/contract/index.js';
import type { FetchFn } from '../../../src-main/gateway/index.js';
import { advanceUntilSettled } from '../../support/advance.js';
import { LIMITS, startCore, usePaper, type Harness, type Paper } from '../../support/core-harness.js';

const paper = usePaper();

async function place(h: Harness, input: Record<string, unknown>): Promise<string> {
  const r = await h.core.router.invoke('orders.place', { exchange: 'NSE', product: 'MIS', ...input });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.orderid;
}

async function read<T>(h: Harness, channel: 'books.orders' | 'books.positions'): Promise<T> {
  const r = await h.core.router.invoke(channel);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value as T;
}

/** A long position in SBIN, its stop-loss (trigger pending) and a resting LIMIT in INFY, placed back to back. */
async function exposure(h: Harness, p: Paper) {
  const sbin = p.inst('NSE', 'SBIN');
  const infy = p.inst('NSE', 'INFY');
  await place(h, { symbol: 'SBIN', action: 'BUY', quantity: 10, pricetype: 'MARKET' });
  const sl = await place(h, {
    symbol: 'SBIN',
    action: 'SELL',
    quantity: 10,
    pricetype: 'SL',
    trigger_price: p.onTick(sbin, p.ltp(sbin) * 0.95),
    price: p.onTick(sbin, p.ltp(sbin) * 0.94),
  });
  const limit = await place(h, {
    symbol: 'INFY',
    action: 'BUY',
    quantity: 3,
    pricetype: 'LIMIT',
    price: p.onTick(infy, p.ltp(infy) * 0.97),
  });
  return { sl, limit };
}

function statusOf(book: OrdersView, orderid: string): string | undefined {
  return book.orders.find((o) => o.orderid === orderid)?.status;
}

/**
 * The real gateway's cancel-all (gateway-behaviour §5): it cancels `open` orders and leaves
 * `trigger pending` ones working. Emulated in front of the paper gateway (which cancels both) by
 * answering cancelallorder with one cancelorder per open order.
 */
function upstreamCancelAll(): FetchFn {
  return async (input, init) => {
    const url = String(input);
    if (!url.endsWith('/api/v1/cancelallorder')) return fetch(input, init);
    const { apikey, strategy } = JSON.parse(String(init?.body)) as { apikey: string; strategy: string };
    const base = url.slice(0, -'/cancelallorder'.length);
    const post = (path: string, body: object) =>
      fetch(`${base}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apikey, ...body }),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const book = (await post('orderbook', {})) as {
      data: { orders: { orderid: string; order_status: string }[] };
    };
    const canceled: string[] = [];
    for (const o of book.data.orders.filter((x) => x.order_status === 'open')) {
      const r = await post('cancelorder', { strategy, orderid: o.orderid });
      if (r['status'] === 'success') canceled.push(o.orderid);
    }
    return new Response(
      JSON.stringify({
        status: 'success',
        canceled_orders: canceled,
        failed_cancellations: [],
        message: `Canceled ${canceled.length} orders. Failed to cancel 0 orders.`,
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    );
  };
}

describe('close all in the core (orders.closeAll)', () => {
  it('cancels a LIMIT placed a moment before and a trigger-pending SL one by one, closes, and says flat only once the books show it', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      const { sl, limit } = await exposure(h, paper);
      // No poll in between: the watcher has not seen the LIMIT (nor the SL).
      const r: IpcResult<CloseAllResult> = await advanceUntilSettled(
        h.clock,
        h.core.router.invoke('orders.closeAll'),
      );
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      expect(r.value.verdict).toBe('flat');
      expect(r.value.text).toContain('Flat: every position of the strategy is closed');
      expect([...r.value.cancelled].sort()).toEqual([sl, limit].sort());
      expect(r.value.steps.map((s) => [s.id, s.state])).toEqual([
        ['cancel', 'done'],
        ['close', 'done'],
        ['verify', 'done'],
      ]);
      expect(r.value.steps[0]?.detail).toBe('2 cancelled');

      // The gateway's books, read afterwards: nothing working, nothing open.
      const book = await read<OrdersView>(h, 'books.orders');
      expect([statusOf(book, sl), statusOf(book, limit)]).toEqual(['cancelled', 'cancelled']);
      expect(book.orders.filter((o) => o.status === 'open' || o.status === 'trigger pending')).toEqual([]);
      const positions = await read<PositionsView>(h, 'books.positions');
      expect(positions.positions.filter((p) => p.quantity !== 0)).toEqual([]);

      // One cancelorder per order, journalled like any cancel; never the gateway's cancel-all.
      expect(paper.proxy.forwarded.filter((q) => q.path === '/api/v1/cancelallorder')).toEqual([]);
      const journal = await h.core.router.invoke('journal.query', { operation: 'cancelorder' });
      if (!journal.ok) throw new Error(JSON.stringify(journal.error));
      expect(journal.value.map((e) => (e.request as { orderid: string }).orderid).sort()).toEqual(
        [sl, limit].sort(),
      );

      // The desk's step list comes from these: the last carries the verdict.
      const progress = h.of('orders.closeAllProgress');
      expect(progress.length).toBeGreaterThan(3);
      expect(progress.at(-1)).toMatchObject({ verdict: 'flat', strategy: r.value.strategy });
      expect(new Set(progress.map((p) => p.runId)).size).toBe(1);
    } finally {
      await h.stop();
    }
  });

  it('never says flat when a cancel is refused: it stops before closing and says which order is left', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      const { sl } = await exposure(h, paper);
      paper.proxy.reset();
      // The SL's cancel is refused twice (the first try and the one retry).
      paper.proxy.decide((path) =>
        path === '/api/v1/cancelorder' ? { kind: 'error500' } : { kind: 'pass' },
      );
      const r = await advanceUntilSettled(h.clock, h.core.router.invoke('orders.closeAll'));
      paper.proxy.decide(undefined);
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      expect(r.value.verdict).toBe('stopped');
      expect(r.value.text).toBe('Stopped: working orders were not all cancelled');
      expect(r.value.steps.map((s) => s.state)).toEqual(['failed', 'skipped', 'skipped']);
      expect(r.value.notCancelled.map((n) => n.orderid)).toContain(sl);
      expect(paper.proxy.receivedFor('/api/v1/closeposition')).toBe(0);
      // Clean up for the next test: the core's run again, with the gateway answering.
      const again = await advanceUntilSettled(h.clock, h.core.router.invoke('orders.closeAll'));
      expect(again.ok && again.value.verdict).toBe('flat');
    } finally {
      await h.stop();
    }
  });

  it('a close whose outcome is unknown is reported in words, not flat', async () => {
    const h = await startCore(paper);
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      await exposure(h, paper);
      paper.proxy.enqueue({ kind: 'drop' }, '/api/v1/closeposition');
      const r = await advanceUntilSettled(h.clock, h.core.router.invoke('orders.closeAll'));
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      expect(r.value.verdict).toBe('stopped');
      expect(r.value.text).toContain('not known');
      expect(r.value.steps[1]).toMatchObject({ id: 'close', state: 'failed' });
      expect(r.value.steps[1]?.detail).toMatch(/^Outcome unknown/);
    } finally {
      await h.stop();
    }
  });
});

describe('cancel all in the core (orders.cancelAll)', () => {
  it('leaves no order working where the gateway’s cancelallorder skips trigger-pending ones', async () => {
    const h = await startCore(paper, { ports: { fetch: upstreamCancelAll() } });
    try {
      await h.core.router.invoke('settings.update', LIMITS);
      const { sl, limit } = await exposure(h, paper);
      const r = await advanceUntilSettled(h.clock, h.core.router.invoke('orders.cancelAll'));
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      const book = await read<OrdersView>(h, 'books.orders');
      expect([statusOf(book, limit), statusOf(book, sl)]).toEqual(['cancelled', 'cancelled']);
      expect([...r.value.canceled_orders].sort()).toEqual([sl, limit].sort());
      expect(r.value.failed_cancellations).toEqual([]);
    } finally {
      await h.stop();
    }
  });
});
