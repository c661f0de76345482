// A gateway that answers "success" without the orderid placeorder, modifyorder and cancelorder exist
// to return: the real paper gateway acts, the fault proxy strips the id from its answer. The core must
// never call that done: it reports an unknown outcome, settles it from the order book and sends nothing
// again.
import { describe, expect, it } from 'vitest';
import { LIMITS, restingBuy, startCore, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();
const STRIP_ORDERID = { kind: 'strip', fields: ['orderid'] } as const;

interface BookRow {
  orderid: string;
  symbol: string;
  quantity: string | number;
  price: string | number;
  order_status: string;
}

/** The running core's paper key (each core has its own), as the proxy last saw it go to the gateway. */
function coreKey(): string {
  const sent = paper.proxy.forwarded.findLast((r) => r.path === '/api/v1/orderbook');
  const key = sent && (JSON.parse(sent.body) as { apikey?: string }).apikey;
  if (!key) throw new Error('the core has not read the order book yet');
  return key;
}

/** The order book straight from the gateway (not through the proxy or the core). */
async function orderBook(): Promise<BookRow[]> {
  const res = await fetch(`${paper.gw.url}/api/v1/orderbook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apikey: coreKey() }),
  });
  const body = (await res.json()) as { data: { orders: BookRow[] } };
  return body.data.orders;
}

async function withCore(fn: (h: Harness) => Promise<void>): Promise<void> {
  const h = await startCore(paper);
  try {
    await h.core.router.invoke('settings.update', LIMITS);
    await h.core.pollNow(); // baseline, and the core's key is seen on its way to the gateway
    await fn(h);
  } finally {
    await h.stop();
  }
}

describe('a success answer without its orderid', () => {
  it('placeorder: unknown, then reconciled from the book with the id; one order, sent once', async () => {
    await withCore(async (h) => {
      const before = (await orderBook()).length;
      const sent = paper.proxy.forwardedTo('/api/v1/placeorder');
      paper.proxy.enqueue(STRIP_ORDERID, '/api/v1/placeorder');
      const r = await h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'INFY',
        action: 'BUY',
        quantity: 4,
        product: 'MIS',
      });
      expect(r).toMatchObject({
        ok: false,
        error: { kind: 'unknown_outcome', message: expect.stringMatching(/orderid is missing/) },
      });
      expect(h.of('orders.unknown')).toMatchObject([{ operation: 'placeorder' }]);
      const journalId = h.of('orders.unknown')[0]?.journalId;

      await h.core.pollNow();
      const book = await orderBook();
      expect(book).toHaveLength(before + 1);
      const placed = book.find((o) => o.symbol === 'INFY' && Number(o.quantity) === 4);
      expect(placed?.orderid).toMatch(/^\d+$/);
      expect(h.of('orders.reconciled')).toMatchObject([
        { operation: 'placeorder', journalId, found: true, orderid: placed?.orderid },
      ]);
      const names = h.events.map((e) => e.name);
      expect(names.indexOf('orders.unknown')).toBeLessThan(names.indexOf('orders.reconciled'));
      await h.core.pollNow();
      expect(paper.proxy.forwardedTo('/api/v1/placeorder')).toBe(sent + 1);
      expect(h.of('orders.reconciled')).toHaveLength(1);
    });
  });

  it('modifyorder: unknown, then reconciled from the order price in the book; sent once', async () => {
    await withCore(async (h) => {
      const { i, limit, orderid } = await restingBuy(paper, h, 'TCS', 2);
      const sent = paper.proxy.forwardedTo('/api/v1/modifyorder');
      const price = paper.onTick(i, limit * 0.99);
      paper.proxy.enqueue(STRIP_ORDERID, '/api/v1/modifyorder');
      const r = await h.core.router.invoke('orders.modify', {
        orderid,
        exchange: 'NSE',
        symbol: 'TCS',
        action: 'BUY',
        quantity: 2,
        pricetype: 'LIMIT',
        price,
        product: 'MIS',
        trigger_price: 0,
        disclosed_quantity: 0,
      });
      expect(r).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
      expect(h.of('orders.unknown')).toMatchObject([{ operation: 'modifyorder', orderid }]);
      await h.core.pollNow();
      expect(Number((await orderBook()).find((o) => o.orderid === orderid)?.price)).toBe(price);
      expect(h.of('orders.reconciled')).toMatchObject([{ operation: 'modifyorder', found: true, orderid }]);
      expect(paper.proxy.forwardedTo('/api/v1/modifyorder')).toBe(sent + 1);
    });
  });

  it('cancelorder: unknown, then reconciled as cancelled from the book; sent once', async () => {
    await withCore(async (h) => {
      const { orderid } = await restingBuy(paper, h, 'WIPRO', 5);
      const sent = paper.proxy.forwardedTo('/api/v1/cancelorder');
      paper.proxy.enqueue(STRIP_ORDERID, '/api/v1/cancelorder');
      const r = await h.core.router.invoke('orders.cancel', { orderid });
      expect(r).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
      expect(h.of('orders.unknown')).toMatchObject([{ operation: 'cancelorder', orderid }]);
      await h.core.pollNow();
      expect((await orderBook()).find((o) => o.orderid === orderid)?.order_status).toBe('cancelled');
      expect(h.of('orders.reconciled')).toMatchObject([{ operation: 'cancelorder', found: true, orderid }]);
      expect(paper.proxy.forwardedTo('/api/v1/cancelorder')).toBe(sent + 1);
    });
  });
});
