// Composite order operations end to end, placesmartorder: real HTTP, the real engine over SQLite,
// ManualClock prices. Positions are set up with real orders first, then the composite call, then
// the books are checked.
import { describe, expect, it } from 'vitest';
import { tickRound } from '../../support/paper-gateway.js';
import { ok, useCompositeGateway, type Action, type Fields } from './composite-fixture.js';

const { gw, market, orderStatus, orders, net } = useCompositeGateway();

describe('placesmartorder, every row end to end', () => {
  const smart = (key: string, action: Action, quantity: number, position_size: number, extra: Fields = {}) =>
    gw.api('placesmartorder', key, {
      strategy: 'smart',
      exchange: 'NSE',
      symbol: 'SBIN',
      action,
      quantity: String(quantity),
      position_size: String(position_size),
      product: 'MIS',
      pricetype: 'MARKET',
      ...extra,
    });
  const setUp = async (key: string, current: number) => {
    if (current !== 0) await market(key, current > 0 ? 'BUY' : 'SELL', Math.abs(current));
    expect(await net(key)).toBe(current);
  };

  // [action, Q, T, C, order placed, final position] — spec §4.12 rows, then gateway-behaviour §6 rows.
  const ROWS: [Action, number, number, number, string, number][] = [
    ['BUY', 100, 0, 0, 'BUY 100', 100],
    ['BUY', 100, 100, -100, 'BUY 200', 100],
    ['BUY', 100, 200, 100, 'BUY 100', 200],
    ['SELL', 100, 0, 0, 'SELL 100', -100],
    ['SELL', 100, -100, 100, 'SELL 200', -100],
    ['SELL', 100, -200, -100, 'SELL 100', -200],
    ['BUY', 100, 50, 100, 'SELL 50', 50],
    ['SELL', 100, 200, 100, 'BUY 100', 200],
    ['BUY', 5, 0, 5, 'SELL 5', 0],
    ['SELL', 5, 0, -5, 'BUY 5', 0],
    ['SELL', 100, 100, 0, 'BUY 100', 100],
    ['BUY', 100, -100, 0, 'SELL 100', -100],
  ];
  it.each(ROWS)('%s Q=%d T=%d C=%d → %s, ends at %d', async (action, q, t, c, placed, end) => {
    const key = gw.newKey();
    await setUp(key, c);
    const id = ok(await smart(key, action, q, t));
    const o = await orderStatus(key, id);
    expect(`${o.action} ${o.quantity}`).toBe(placed);
    expect(o.order_status).toBe('complete');
    expect(await net(key)).toBe(end);
  });

  const NO_OPS: [Action, number, number, number, string][] = [
    ['BUY', 100, 100, 100, 'Positions Already Matched. No Action needed.'],
    ['SELL', 100, -100, -100, 'Positions Already Matched. No Action needed.'],
    ['BUY', 0, 0, 0, 'No OpenPosition Found. Not placing Exit order.'],
    ['BUY', 0, 100, 100, 'No OpenPosition Found. Not placing Exit order.'],
  ];
  it.each(NO_OPS)('%s Q=%d T=%d C=%d places nothing (200 with message)', async (action, q, t, c, message) => {
    const key = gw.newKey();
    await setUp(key, c);
    const before = (await orders(key)).length;
    const r = await smart(key, action, q, t);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'success', message, mode: 'analyze' });
    expect((await orders(key)).length).toBe(before);
    expect(await net(key)).toBe(c);
  });

  it('honours the requested LIMIT price (Decision 4)', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const limit = tickRound(i, gw.gateway.market.lastPrice(i) * 0.9);
    const id = ok(await smart(key, 'BUY', 0, 10, { pricetype: 'LIMIT', price: String(limit) }));
    const o = await orderStatus(key, id);
    expect(o).toMatchObject({ pricetype: 'LIMIT', price: limit, order_status: 'open', quantity: 10 });
    expect(await net(key)).toBe(0);
  });

  it('reads the net position of the whole account, across strategies', async () => {
    const key = gw.newKey();
    await market(key, 'BUY', 30, 'other');
    const r = await smart(key, 'BUY', 10, 30);
    expect(r.body.message).toBe('Positions Already Matched. No Action needed.');
  });

  it('takes quantity, position_size and price as JSON numbers too', async () => {
    const key = gw.newKey();
    await setUp(key, 40);
    const r = await gw.api('placesmartorder', key, {
      strategy: 'smart',
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY',
      quantity: 10,
      position_size: 15,
      price: 0,
      trigger_price: 0,
      disclosed_quantity: 0,
    });
    const o = await orderStatus(key, ok(r));
    expect(`${o.action} ${o.quantity}`).toBe('SELL 25');
    expect(o).toMatchObject({ pricetype: 'MARKET', order_status: 'complete' }); // defaults
    expect(await net(key)).toBe(15);
  });

  it('answers an engine refusal as an error', async () => {
    const key = gw.newKey();
    const r = await smart(key, 'BUY', 10, 0, { symbol: 'NOPE' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ status: 'error', message: 'Symbol NOPE not found on NSE' });
  });
});
