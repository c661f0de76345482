// Composite order operations end to end, splitorder and basketorder: real HTTP, the real engine
// over SQLite, ManualClock prices. Positions are set up with real orders first, then the composite
// call, then the books are checked.
import { describe, expect, it } from 'vitest';
import { tickRound } from '../../support/paper-gateway.js';
import { useCompositeGateway } from './composite-fixture.js';

const { gw, orderStatus, orders, net } = useCompositeGateway();

describe('splitorder', () => {
  it('five full children and a remainder: six orders in the book, per-child status', async () => {
    const key = gw.newKey();
    const r = await gw.api('splitorder', key, {
      strategy: 'split',
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY',
      quantity: '105',
      splitsize: '20',
      pricetype: 'MARKET',
      product: 'MIS',
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: 'success', split_size: 20, total_quantity: 105 });
    const results = r.body.results as {
      order_num: number;
      orderid: string;
      quantity: number;
      status: string;
    }[];
    expect(results.map((c) => [c.order_num, c.quantity, c.status])).toEqual([
      [1, 20, 'success'],
      [2, 20, 'success'],
      [3, 20, 'success'],
      [4, 20, 'success'],
      [5, 20, 'success'],
      [6, 5, 'success'],
    ]);
    const book = await orders(key);
    expect(book).toHaveLength(6);
    expect(new Set(book.map((o) => o.orderid))).toEqual(new Set(results.map((c) => c.orderid)));
    expect(book.every((o) => o.strategy === 'split')).toBe(true);
    expect(await net(key)).toBe(105);
  });

  it('reports a refused child per child and still answers success', async () => {
    const key = gw.newKey();
    const r = await gw.api('splitorder', key, {
      strategy: 'split',
      exchange: 'NSE',
      symbol: 'NOPE',
      action: 'BUY',
      quantity: 25,
      splitsize: 20,
    });
    expect(r.status).toBe(200);
    expect(r.body.results).toEqual([
      { order_num: 1, quantity: 20, status: 'error', message: 'Symbol NOPE not found on NSE' },
      { order_num: 2, quantity: 5, status: 'error', message: 'Symbol NOPE not found on NSE' },
    ]);
  });

  it('refuses more than 100 children', async () => {
    const key = gw.newKey();
    const r = await gw.api('splitorder', key, {
      strategy: 'split',
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'SELL',
      quantity: 5000,
      splitsize: 20,
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Total number of orders would exceed maximum limit of 100');
    expect(await orders(key)).toHaveLength(0);
  });
});

describe('basketorder', () => {
  it('places every good leg (BUY first) with the basket strategy and reports the bad one', async () => {
    const key = gw.newKey();
    const r = await gw.api('basketorder', key, {
      strategy: 'basket',
      orders: [
        { symbol: 'INFY', exchange: 'NSE', action: 'SELL', quantity: '2', product: 'MIS' },
        { symbol: 'NOPE', exchange: 'NSE', action: 'BUY', quantity: '1' },
        { symbol: 'SBIN', exchange: 'NSE', action: 'BUY', quantity: '3', product: 'MIS' },
      ],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.status).toBe('success');
    expect(r.body.results).toEqual([
      { status: 'error', symbol: 'NOPE', message: 'Symbol NOPE not found on NSE' },
      { orderid: expect.any(String), status: 'success', symbol: 'SBIN', exchange: 'NSE', product: 'MIS' },
      { orderid: expect.any(String), status: 'success', symbol: 'INFY', exchange: 'NSE', product: 'MIS' },
    ]);
    const book = await orders(key);
    expect(book.map((o) => o.symbol).sort()).toEqual(['INFY', 'SBIN']);
    expect(book.every((o) => o.strategy === 'basket')).toBe(true);
    expect(await net(key, 'SBIN')).toBe(3);
    expect(await net(key, 'INFY')).toBe(-2);
  });
});

describe('basketorder fields', () => {
  it('takes numbers or strings per leg and applies the defaults (MARKET, MIS)', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const limit = tickRound(i, gw.gateway.market.lastPrice(i) * 0.9);
    const r = await gw.api('basketorder', key, {
      strategy: 'basket',
      orders: [
        { symbol: 'SBIN', exchange: 'NSE', action: 'BUY', quantity: 2 },
        {
          symbol: 'SBIN',
          exchange: 'NSE',
          action: 'BUY',
          quantity: '3',
          pricetype: 'LIMIT',
          price: String(limit),
        },
        {
          symbol: 'SBIN',
          exchange: 'NSE',
          action: 'BUY',
          quantity: 4,
          pricetype: 'LIMIT',
          price: limit,
          product: 'CNC',
        },
      ],
    });
    expect(r.status, r.text).toBe(200);
    const ids = (r.body.results as { orderid: string; status: string }[]).map((x) => {
      expect(x.status).toBe('success');
      return x.orderid;
    });
    const rows = await Promise.all(ids.map((id) => orderStatus(key, id)));
    expect(
      rows.map((o) => [o.quantity, o.pricetype, o.price, (o as unknown as { product: string }).product]),
    ).toEqual([
      [2, 'MARKET', 0, 'MIS'],
      [3, 'LIMIT', limit, 'MIS'],
      [4, 'LIMIT', limit, 'CNC'],
    ]);
  });
});
