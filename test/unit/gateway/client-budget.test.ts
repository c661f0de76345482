// The gateway client against a scripted fetch and a manual clock: one rate budget per client, its
// windows the gateway's limiter classes.
import { describe, expect, it } from 'vitest';
import { json, type Handler } from '../../support/fake-fetch.js';
import { ORDER, ORDER_BOOK, setup } from './client-fixture.js';

describe('one rate budget per client', () => {
  it('honours N requests per second over time', async () => {
    const { client, calls, clock } = setup(() => json(ORDER_BOOK), { rateLimit: 10 });
    const start = clock.now();
    const all = Promise.all(Array.from({ length: 25 }, () => client.orderbook()));
    await clock.advance(5_000);
    const results = await all;
    expect(results.every((r) => r.ok)).toBe(true);
    const offsets = calls.map((c) => c.at - start);
    // Reads take 9 of the 10: the last slot is kept for an order.
    expect(offsets.filter((t) => t === 0)).toHaveLength(9);
    expect(offsets.filter((t) => t === 1000)).toHaveLength(9);
    expect(offsets.filter((t) => t === 2000)).toHaveLength(7);
    // No window of one second ever holds more than 10 requests.
    for (const t of offsets)
      expect(offsets.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(10);
  });

  it('is configurable', async () => {
    const { client, calls, clock } = setup(() => json(ORDER_BOOK), { rateLimit: 2 });
    const all = Promise.all(Array.from({ length: 5 }, () => client.funds()));
    await clock.advance(5_000);
    await all;
    expect(calls.map((c) => c.at - (calls[0]?.at ?? 0))).toEqual([0, 0, 1000, 1000, 2000]);
  });

  it('sends queued mutations of the api window ahead of its queued reads', async () => {
    const { client, calls, clock } = setup(
      (call) =>
        call.url.endsWith('/cancelallorder')
          ? json({ status: 'success', canceled_orders: [], failed_cancellations: [], message: 'none open' })
          : json(ORDER_BOOK),
      { rateLimit: 1 },
    );
    const reads = [client.orderbook(), client.tradebook(), client.holdings()];
    await clock.advance(0);
    // Cancel-all is a mutation the gateway counts with the reads (API_RATE_LIMIT).
    const cancelAll = client.cancelallorder({ strategy: 'Ticket' });
    await clock.advance(10_000);
    await Promise.all([...reads, cancelAll]);
    expect(calls.map((c) => c.url.replace('http://gateway.test/api/v1/', ''))).toEqual([
      'orderbook',
      'cancelallorder',
      'tradebook',
      'holdings',
    ]);
  });

  it("sends an order's reads ahead of the trader's reads, and background polling last", async () => {
    const { client, calls, clock } = setup(() => json(ORDER_BOOK), { rateLimit: 1 });
    const polling = client.withPriority('background');
    const polls = [polling.orderbook(), polling.positionbook(), polling.tradebook()];
    await clock.advance(0);
    const asked = client.holdings();
    const order = client.withPriority('order').funds();
    // A view's mutations stay mutations, whatever its lane (cancel-all counts in the api window).
    const mutation = polling.cancelallorder({ strategy: 'Ticket' });
    await clock.advance(10_000);
    await Promise.all([...polls, asked, order, mutation]);
    expect(calls.map((c) => c.url.replace('http://gateway.test/api/v1/', ''))).toEqual([
      'orderbook',
      'cancelallorder',
      'funds',
      'holdings',
      'positionbook',
      'tradebook',
    ]);
    // One budget behind every view: one request a second in the api window.
    expect(calls.map((c) => c.at - (calls[0]?.at ?? 0))).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
  });
});

describe("the budget's windows are the gateway's limiter classes", () => {
  const QUOTE = {
    status: 'success',
    data: { ask: 1, bid: 1, high: 1, low: 1, ltp: 1, open: 1, prev_close: 1, volume: 0 },
  };
  /** Answers each path as the gateway would; every answer is ok. */
  const gateway: Handler = (call) => {
    const op = call.url.replace('http://gateway.test/api/v1/', '');
    if (['placeorder', 'modifyorder', 'cancelorder'].includes(op))
      return json({ status: 'success', orderid: '1' });
    if (op === 'placesmartorder') return json({ status: 'success', orderid: '2' });
    if (op === 'quotes') return json(QUOTE);
    return json(ORDER_BOOK);
  };
  const opOf = (url: string) => url.replace('http://gateway.test/api/v1/', '');
  const MODIFY = {
    ...ORDER,
    orderid: '1',
    pricetype: 'LIMIT',
    price: 100,
    trigger_price: 0,
    disclosed_quantity: 0,
  } as const;

  it('a saturated api window does not delay a placeorder, a modify or a cancel', async () => {
    const { client, calls, clock } = setup(gateway, { rateLimit: 10 });
    const polling = client.withPriority('background');
    const polls = Array.from({ length: 30 }, () => polling.orderbook());
    const asked = Array.from({ length: 5 }, () => client.funds());
    await clock.advance(100);
    const start = clock.now();
    const orders = [
      client.placeorder(ORDER),
      client.modifyorder(MODIFY),
      client.cancelorder({ orderid: '1', strategy: 'Ticket' }),
    ];
    await clock.advance(0);
    const mutations = calls.filter((c) => /placeorder|modifyorder|cancelorder/.test(c.url));
    expect(mutations.map((c) => c.at - start)).toEqual([0, 0, 0]);
    await clock.advance(10_000);
    expect((await Promise.all(orders)).every((r) => r.ok)).toBe(true);
    await Promise.all([...polls, ...asked]);
  });

  it('10 order mutations and their 10 quote reads within a second all go without waiting', async () => {
    const { client, calls, clock } = setup(gateway, { rateLimit: 10 });
    const risk = client.withPriority('order');
    const all: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) {
      all.push(risk.quotes({ symbol: 'SBIN', exchange: 'NSE' }));
      all.push(client.placeorder(ORDER));
      await clock.advance(50);
    }
    expect(calls).toHaveLength(20);
    await clock.advance(10_000);
    await Promise.all(all);
    // Each went when it was asked: the i-th pair at i × 50 ms.
    calls.forEach((c, i) => expect(c.at - calls[0]!.at).toBe(Math.floor(i / 2) * 50));
  });

  it('still sends at most N a second in each class, the classes side by side', async () => {
    const { client, calls, clock } = setup(gateway, { rateLimit: 10 });
    const start = clock.now();
    const all = [
      ...Array.from({ length: 25 }, () => client.placeorder(ORDER)),
      ...Array.from({ length: 25 }, () => client.placesmartorder({ ...ORDER, position_size: 1 })),
      ...Array.from({ length: 25 }, () =>
        client.withPriority('order').quotes({ symbol: 'SBIN', exchange: 'NSE' }),
      ),
      // Cancel-all is counted with the reads, not with the order mutations.
      client.cancelallorder({ strategy: 'Ticket' }),
    ];
    await clock.advance(10_000);
    await Promise.all(all);
    const classOf = (op: string) =>
      op === 'placeorder' ? 'order' : op === 'placesmartorder' ? 'smart' : 'api';
    for (const cls of ['order', 'smart', 'api']) {
      const at = calls.filter((c) => classOf(opOf(c.url)) === cls).map((c) => c.at - start);
      expect(at.length).toBe(cls === 'api' ? 26 : 25);
      for (const t of at) expect(at.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(10);
      // Each class had its own ten at once.
      expect(at.filter((t) => t === 0)).toHaveLength(10);
    }
    expect(calls.filter((c) => c.at === start)).toHaveLength(30);
  });

  it('lanes still order the api window; an order mutation takes no api slot', async () => {
    const { client, calls, clock } = setup(gateway, { rateLimit: 1 });
    const polling = client.withPriority('background');
    const polls = [polling.orderbook(), polling.positionbook()];
    await clock.advance(0);
    const asked = client.holdings();
    const quote = client.withPriority('order').quotes({ symbol: 'SBIN', exchange: 'NSE' });
    const order = polling.placeorder(ORDER);
    await clock.advance(10_000);
    await Promise.all([...polls, asked, quote, order]);
    expect(calls.map((c) => [opOf(c.url), c.at - calls[0]!.at])).toEqual([
      ['orderbook', 0],
      ['placeorder', 0],
      ['quotes', 1000],
      ['holdings', 2000],
      ['positionbook', 3000],
    ]);
  });
});
