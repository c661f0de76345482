// The composite routes over HTTP against an in-memory fake engine: response shapes, statuses and
// the order of engine calls, for placesmartorder, splitorder and basketorder. The same scenarios
// run against the real engine in composite-*.test.ts.
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src-main/contract/index.js';
import { engine, fill, net, post, useFakeEngineServer } from './composite-routes-fake-fixture.js';

useFakeEngineServer();

describe('placesmartorder', () => {
  const smart = (
    action: Action,
    quantity: number,
    position_size: number,
    extra: Record<string, unknown> = {},
  ) =>
    post('placesmartorder', {
      apikey: 'key-a',
      strategy: 'S',
      exchange: 'NSE',
      symbol: 'SBIN',
      action,
      quantity: String(quantity),
      position_size: String(position_size),
      product: 'MIS',
      ...extra,
    });

  it.each([
    ['BUY', 100, 0, 0, 100],
    ['BUY', 100, 100, -100, 100],
    ['BUY', 100, 200, 100, 200],
    ['SELL', 100, 0, 0, -100],
    ['SELL', 100, -100, 100, -100],
    ['SELL', 100, -200, -100, -200],
    ['BUY', 100, 50, 100, 50],
    ['SELL', 100, 200, 100, 200],
    ['BUY', 5, 0, 5, 0],
    ['SELL', 5, 0, -5, 0],
    ['SELL', 100, 100, 0, 100],
    ['BUY', 100, -100, 0, -100],
  ] as const)('%s Q=%d T=%d C=%d places an order and ends at %d', async (action, q, t, c, end) => {
    if (c !== 0) fill(c > 0 ? 'BUY' : 'SELL', Math.abs(c));
    const res = await smart(action, q, t);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', orderid: expect.any(String), mode: 'analyze' });
    expect(net()).toBe(end);
  });

  it.each([
    ['BUY', 100, 100, 100, 'Positions Already Matched. No Action needed.'],
    ['SELL', 100, -100, -100, 'Positions Already Matched. No Action needed.'],
    ['BUY', 0, 0, 0, 'No OpenPosition Found. Not placing Exit order.'],
    ['SELL', 0, 100, 100, 'No OpenPosition Found. Not placing Exit order.'],
  ] as const)('%s Q=%d T=%d C=%d is a 200 no-op', async (action, q, t, c, message) => {
    if (c !== 0) fill(c > 0 ? 'BUY' : 'SELL', Math.abs(c));
    const before = engine.placeCalls;
    const res = await smart(action, q, t);
    expect(res).toEqual({ status: 200, body: { status: 'success', message, mode: 'analyze' } });
    expect(engine.placeCalls).toBe(before);
    expect(net()).toBe(c);
  });

  it('counts the whole account, every strategy (like the broker position book)', async () => {
    fill('BUY', 30, 'Other');
    const res = await smart('BUY', 10, 30);
    expect(res.body['message']).toBe('Positions Already Matched. No Action needed.');
  });

  it('honours the requested pricetype and price (Decision 4)', async () => {
    await smart('BUY', 10, 0, { pricetype: 'LIMIT', price: '95.5' });
    const [order] = engine.orders('A');
    expect(order).toMatchObject({
      pricetype: 'LIMIT',
      price: 95.5,
      action: 'BUY',
      quantity: 10,
      strategy: 'S',
    });
  });

  it('passes an engine refusal through as the error', async () => {
    const res = await smart('BUY', 10, 0, { symbol: 'BAD' });
    expect(res).toEqual({ status: 400, body: { status: 'error', message: 'Symbol BAD not found on NSE' } });
  });

  it('validates before acting', async () => {
    const res = await smart('BUY', 10, 1.5);
    expect(res.status).toBe(400);
    expect(engine.placeCalls).toBe(0);
  });
});

describe('splitorder', () => {
  const split = (quantity: number, splitsize: number, symbol = 'YESBANK') =>
    post('splitorder', {
      apikey: 'key-a',
      strategy: 'Python',
      exchange: 'NSE',
      symbol,
      action: 'SELL',
      quantity: String(quantity),
      splitsize: String(splitsize),
      pricetype: 'MARKET',
      product: 'MIS',
    });

  it('five full children and a remainder: six orders, numbered from 1, remainder last', async () => {
    const res = await split(105, 20);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', split_size: 20, total_quantity: 105 });
    const results = res.body['results'] as Record<string, unknown>[];
    expect(results.map((r) => [r['order_num'], r['quantity'], r['status']])).toEqual([
      [1, 20, 'success'],
      [2, 20, 'success'],
      [3, 20, 'success'],
      [4, 20, 'success'],
      [5, 20, 'success'],
      [6, 5, 'success'],
    ]);
    expect(new Set(results.map((r) => r['orderid'])).size).toBe(6);
    expect(engine.orders('A')).toHaveLength(6);
  });

  it('reports per-child errors and still answers success', async () => {
    const res = await split(45, 20, 'BAD');
    expect(res.status).toBe(200);
    expect(res.body['results']).toEqual([
      { order_num: 1, quantity: 20, status: 'error', message: 'Symbol BAD not found on NSE' },
      { order_num: 2, quantity: 20, status: 'error', message: 'Symbol BAD not found on NSE' },
      { order_num: 3, quantity: 5, status: 'error', message: 'Symbol BAD not found on NSE' },
    ]);
  });

  it('refuses more than 100 children with 400 and places nothing', async () => {
    const res = await split(5000, 20);
    expect(res).toEqual({
      status: 400,
      body: { status: 'error', message: 'Total number of orders would exceed maximum limit of 100' },
    });
    expect(engine.placeCalls).toBe(0);
  });
});

describe('basketorder', () => {
  it('places BUY legs first, reports per leg, applies the basket strategy', async () => {
    const res = await post('basketorder', {
      apikey: 'key-a',
      strategy: 'Basket',
      orders: [
        { symbol: 'ZOMATO', exchange: 'NSE', action: 'SELL', quantity: '1' },
        { symbol: 'BHEL', exchange: 'NSE', action: 'BUY', quantity: '1', product: 'CNC' },
        { symbol: 'BAD', exchange: 'NSE', action: 'BUY', quantity: '1' },
        {
          symbol: 'RELIANCE',
          exchange: 'NSE',
          action: 'BUY',
          quantity: '1',
          pricetype: 'LIMIT',
          price: '1180',
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body['status']).toBe('success');
    expect(res.body['results']).toEqual([
      { orderid: expect.any(String), status: 'success', symbol: 'BHEL', exchange: 'NSE', product: 'CNC' },
      { status: 'error', symbol: 'BAD', message: 'Symbol BAD not found on NSE' },
      { orderid: expect.any(String), status: 'success', symbol: 'RELIANCE', exchange: 'NSE', product: 'MIS' },
      { orderid: expect.any(String), status: 'success', symbol: 'ZOMATO', exchange: 'NSE', product: 'MIS' },
    ]);
    expect(engine.orders('A').every((o) => o.strategy === 'Basket')).toBe(true);
    expect(engine.orders('A').map((o) => o.symbol)).toEqual(['ZOMATO', 'RELIANCE', 'BHEL']);
  });

  it('answers success even when every leg fails', async () => {
    const res = await post('basketorder', {
      apikey: 'key-a',
      strategy: 'Basket',
      orders: [{ symbol: 'BAD', exchange: 'NSE', action: 'SELL', quantity: '1' }],
    });
    expect(res.body).toEqual({
      status: 'success',
      results: [{ status: 'error', symbol: 'BAD', message: 'Symbol BAD not found on NSE' }],
      mode: 'analyze',
    });
  });
});
