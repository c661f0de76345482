// Modify and cancel over real HTTP against the embedded gateway (ManualClock), and the margin a
// modify blocks or releases.
import { describe, expect, it } from 'vitest';
import { tickRound } from '../../support/paper-gateway.js';
import { paise, useOrdersGateway, type Fields } from './orders-fixture.js';

const { gw, place, status, funds, orderbook, ok, ltp, expectInvariants } = useOrdersGateway();

describe('modify and cancel', () => {
  it('modifies an open order and refuses terminal or unknown ones', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const limit = tickRound(i, ltp(i) * 0.9);
    const id = ok(await place(key, { symbol: 'SBIN', quantity: 10, pricetype: 'LIMIT', price: limit }));
    const newLimit = tickRound(i, limit - 1);
    const modify = (orderid: string, extra: Fields = {}) =>
      gw.post('/api/v1/modifyorder', {
        apikey: key,
        strategy: 'test',
        orderid,
        exchange: 'NSE',
        symbol: 'SBIN',
        action: 'BUY',
        product: 'MIS',
        pricetype: 'LIMIT',
        quantity: 20,
        price: newLimit,
        trigger_price: 0,
        disclosed_quantity: 0,
        ...extra,
      });
    const m = await modify(id);
    expect(m.status, m.text).toBe(200);
    expect(m.body).toMatchObject({ status: 'success', orderid: id });
    expect(await status(key, id)).toMatchObject({ quantity: 20, price: newLimit, order_status: 'open' });
    expect((await modify(id, { price: 100.02 })).body.message).toBe(
      'Price 100.02 is not a multiple of tick size 0.05',
    );

    const done = ok(await place(key, { symbol: 'SBIN', quantity: 1 }));
    const refused = await modify(done);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Cannot modify order in complete status');
    const unknown = await modify('99999999999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Order 99999999999999 not found');
  });

  it('cancels an open order, releasing its margin, and refuses terminal or unknown ones', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const limit = tickRound(i, ltp(i) * 0.9);
    const before = await funds(key);
    const id = ok(await place(key, { symbol: 'SBIN', quantity: 100, pricetype: 'LIMIT', price: limit }));
    const blocked = Math.ceil((100 * limit * 100) / 5); // paise, MIS 5×
    const during = await funds(key);
    expect(paise(during.utiliseddebits)).toBe(blocked);
    expect(paise(during.availablecash)).toBe(paise(before.availablecash) - blocked);

    const cancel = (orderid: string) =>
      gw.post('/api/v1/cancelorder', { apikey: key, strategy: 'test', orderid });
    const c = await cancel(id);
    expect(c.status, c.text).toBe(200);
    expect(c.body).toMatchObject({ status: 'success', orderid: id });
    expect((await status(key, id)).order_status).toBe('cancelled');
    expect(await funds(key)).toEqual(before);
    const again = await cancel(id);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Cannot cancel order in cancelled status');
    const unknown = await cancel('12345');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Order 12345 not found');
    expectInvariants();
  });
});

describe('modify re-blocks margin', () => {
  it('raising a resting order blocks more, lowering releases, and an increase beyond the funds is refused', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'MARUTI');
    const limit = tickRound(i, ltp(i) * 0.9);
    const id = ok(
      await place(key, { symbol: i.symbol, quantity: 10, product: 'CNC', pricetype: 'LIMIT', price: limit }),
    );
    const block = (q: number, px = limit) => Math.round(q * px * 100); // paise, CNC 1×
    const capital = 10_000_000 * 100;
    const modify = (quantity: number, price = limit) =>
      gw.post('/api/v1/modifyorder', {
        apikey: key,
        strategy: 'test',
        orderid: id,
        exchange: 'NSE',
        symbol: i.symbol,
        action: 'BUY',
        product: 'CNC',
        pricetype: 'LIMIT',
        quantity,
        price,
        trigger_price: 0,
        disclosed_quantity: 0,
      });
    expect(paise((await funds(key)).utiliseddebits)).toBe(block(10));

    expect((await modify(30)).status).toBe(200);
    let f = await funds(key);
    expect(paise(f.utiliseddebits)).toBe(block(30));
    expect(paise(f.availablecash)).toBe(capital - block(30));

    const lower = tickRound(i, limit * 0.95);
    expect((await modify(20, lower)).status).toBe(200);
    f = await funds(key);
    expect(paise(f.utiliseddebits)).toBe(block(20, lower));
    expect(paise(f.availablecash)).toBe(capital - block(20, lower));

    const huge = Math.ceil(20_000_000 / limit);
    expect(huge).toBeLessThanOrEqual(i.freezeQty);
    const refused = await modify(huge, lower);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(
      /^Insufficient funds\. Required: ₹\d+\.\d{2}, Available: ₹\d+\.\d{2}, Shortage: ₹\d+\.\d{2}$/,
    );
    expect(await status(key, id)).toMatchObject({ quantity: 20, price: lower, order_status: 'open' });
    expect(paise((await funds(key)).utiliseddebits)).toBe(block(20, lower));

    expect(
      (await gw.post('/api/v1/cancelorder', { apikey: key, strategy: 'test', orderid: id })).status,
    ).toBe(200);
    f = await funds(key);
    expect(f.utiliseddebits).toBe('0.00');
    expect(paise(f.availablecash)).toBe(capital);
    expectInvariants();
  });

  it('raising a resting CNC SELL beyond the shares held is refused like a placement; within them it is accepted', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'INFY');
    expect(
      (await status(key, ok(await place(key, { symbol: i.symbol, quantity: 10, product: 'CNC' }))))
        .order_status,
    ).toBe('complete');
    const limit = tickRound(i, ltp(i) * 1.1);
    const id = ok(
      await place(key, {
        symbol: i.symbol,
        action: 'SELL',
        quantity: 4,
        product: 'CNC',
        pricetype: 'LIMIT',
        price: limit,
      }),
    );
    const modify = (quantity: number) =>
      gw.post('/api/v1/modifyorder', {
        apikey: key,
        strategy: 'test',
        orderid: id,
        exchange: 'NSE',
        symbol: i.symbol,
        action: 'SELL',
        product: 'CNC',
        pricetype: 'LIMIT',
        quantity,
        price: limit,
        trigger_price: 0,
        disclosed_quantity: 0,
      });
    const refused = await modify(15);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      `Cannot sell 15 shares of ${i.symbol} in CNC. Only 10 shares available (Position: 10, Holdings: 0)`,
    );
    const unchanged = (await orderbook(key)).orders.find((o) => o.orderid === id);
    expect(unchanged).toMatchObject({ quantity: 4, pending_quantity: 4, order_status: 'open' });

    const m = await modify(10);
    expect(m.status, m.text).toBe(200);
    expect(await status(key, id)).toMatchObject({ quantity: 10, order_status: 'open' });
    expect((await modify(3)).status).toBe(200);
    expect(await status(key, id)).toMatchObject({ quantity: 3, order_status: 'open' });
    expectInvariants();
  });
});
