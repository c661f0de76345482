// The order book answer is assembled from each row's JSON kept until the row changes: it must be
// byte-for-byte what formatting the records afresh gives, and show every change at once, even when
// the change happens within the same clock millisecond as the read before it.
import { describe, expect, it } from 'vitest';
import { accountIdOf } from '../../../src-main/paper/auth/key-store.js';
import { orderRecord, orderStatistics } from '../../../src-main/paper/http/order-format.js';
import { useEngineGateway, tickRound } from '../../support/paper-gateway.js';

const gw = useEngineGateway();

interface Row {
  orderid: string;
  order_status: string;
  price: number;
  quantity: number;
  filled_quantity: number;
}
/** The book over HTTP, checked against the records formatted afresh. */
async function book(key: string): Promise<Row[]> {
  const r = await gw.api('orderbook', key, {});
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  const orders = gw.engine.orders(accountIdOf(key));
  expect(r.text).toBe(
    JSON.stringify({
      status: 'success',
      data: { orders: orders.map(orderRecord), statistics: orderStatistics(orders) },
      mode: 'analyze',
    }),
  );
  return (r.body.data as { orders: Row[] }).orders;
}
const row = (rows: Row[], id: string): Row | undefined => rows.find((o) => o.orderid === id);

describe('order book read from cached rows', () => {
  it('shows a modify, a fill and a cancel made in the same millisecond as the read before', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const ltp = gw.gateway.market.lastPrice(i);
    const place = (price: number) =>
      gw.api('placeorder', key, {
        strategy: 'cache',
        exchange: 'NSE',
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 3,
        pricetype: 'LIMIT',
        price,
      });
    const a = (await place(tickRound(i, ltp * 0.9))).body.orderid as string;
    const b = (await place(tickRound(i, ltp * 0.8))).body.orderid as string;
    expect((await book(key)).map((o) => o.orderid)).toEqual([b, a]);

    const lower = tickRound(i, ltp * 0.85);
    const m = await gw.api('modifyorder', key, {
      strategy: 'cache',
      orderid: a,
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY',
      product: 'MIS',
      pricetype: 'LIMIT',
      quantity: 4,
      price: lower,
      trigger_price: 0,
      disclosed_quantity: 0,
    });
    expect(m.status, m.text).toBe(200);
    expect(row(await book(key), a)).toMatchObject({ price: lower, quantity: 4, order_status: 'open' });

    // The price falls through the modified limit: a fills at the next read, clock unchanged.
    gw.gateway.market.setPrice(i, tickRound(i, lower * 0.99));
    expect(row(await book(key), a)).toMatchObject({ order_status: 'complete', filled_quantity: 4 });

    expect((await gw.api('cancelorder', key, { strategy: 'cache', orderid: b })).status).toBe(200);
    expect(row(await book(key), b)).toMatchObject({ order_status: 'cancelled' });

    const c = (await place(tickRound(i, lower * 0.9))).body.orderid as string;
    expect((await book(key)).map((o) => o.orderid)).toEqual([c, b, a]);
  });

  it('keeps accounts apart and answers an empty book', async () => {
    const key = gw.newKey();
    expect(await book(key)).toEqual([]);
  });
});
