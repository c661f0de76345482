// Fills over real HTTP against the embedded gateway (ManualClock): MARKET and LIMIT orders against
// the book, and stop orders held until triggered, modified while pending.
import { describe, expect, it } from 'vitest';
import { tickRound } from '../../support/paper-gateway.js';
import { useOrdersGateway, type Fields } from './orders-fixture.js';

const { gw, place, status, positions, orderbook, ok, ltp, expectInvariants, away } = useOrdersGateway();

describe('fills', () => {
  it('fills a MARKET order against the book and writes its trade', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'INFY');
    const book = gw.gateway.market.book(i);
    const id = ok(await place(key, { symbol: 'INFY', quantity: 5 }));
    expect(id).toMatch(/^\d{14}$/);
    const o = await status(key, id);
    expect(o).toMatchObject({ order_status: 'complete', filled_quantity: 5, pending_quantity: 0 });
    expect(o.average_price).toBe(book.asks[0]!.price);
    expect(o.timestamp).toBe('20-Nov-2026 10:00:00');
    const trades = (await gw.api('tradebook', key)).body.data as Record<string, unknown>[];
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({
      orderid: id,
      action: 'BUY',
      quantity: 5,
      average_price: book.asks[0]!.price,
      trade_value: Math.round(5 * book.asks[0]!.price * 100) / 100,
      symbol: 'INFY',
      exchange: 'NSE',
      product: 'MIS',
    });
    expect(trades[0]!.tradeid).toMatch(/^TRADE-20261120-\d{6}-[0-9a-f]{8}$/);
    expectInvariants();
  });

  it('walks the book: a large MARKET order fills partially, then completes on later ticks', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'HDFCBANK');
    const shown = gw.gateway.market.book(i).asks.reduce((s, l) => s + l.quantity, 0);
    const qty = shown * 3;
    const id = ok(await place(key, { symbol: 'HDFCBANK', quantity: qty }));
    let o = await status(key, id);
    expect(o.order_status).toBe('open');
    expect(o.filled_quantity).toBe(shown);
    expect(o.pending_quantity).toBe(qty - shown);
    // Same second: the book's liquidity is used up, so a tick adds nothing.
    gw.engine.tick();
    expect((await status(key, id)).filled_quantity).toBe(shown);
    for (let n = 0; n < 20 && o.order_status === 'open'; n++) {
      gw.clock.advance(1000);
      gw.engine.tick();
      o = await status(key, id);
    }
    expect(o.order_status).toBe('complete');
    expect(o.filled_quantity).toBe(qty);
    const trades = (
      (await gw.api('tradebook', key)).body.data as { quantity: number; price: number }[]
    ).filter(() => true);
    const value = trades.reduce((s, t) => s + t.quantity * t.price, 0);
    expect(trades.reduce((s, t) => s + t.quantity, 0)).toBe(qty);
    expect(o.average_price).toBeCloseTo(value / qty, 2);
    expectInvariants();
  });

  it('rests a LIMIT order until the price reaches it, then fills at the limit', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'ICICIBANK');
    const limit = tickRound(i, ltp(i) * 0.97);
    const id = ok(await place(key, { symbol: i.symbol, quantity: 10, pricetype: 'LIMIT', price: limit }));
    expect((await status(key, id)).order_status).toBe('open');
    gw.gateway.market.setPrice(i, tickRound(i, limit * 0.99));
    gw.engine.tick();
    const o = await status(key, id);
    expect(o).toMatchObject({ order_status: 'complete', filled_quantity: 10, average_price: limit });
    expectInvariants();
  });

  it('fills a marketable LIMIT at once from the book, at or better than its limit', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'TCS');
    const limit = tickRound(i, ltp(i) * 1.01);
    const id = ok(await place(key, { symbol: i.symbol, quantity: 3, pricetype: 'LIMIT', price: limit }));
    const o = await status(key, id);
    expect(o.order_status).toBe('complete');
    expect(o.average_price).toBeLessThanOrEqual(limit);
  });

  it('holds SL-M and SL orders as trigger pending until triggered', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'RELIANCE');
    const p = ltp(i);
    const trig = tickRound(i, p * 1.02);
    const slm = ok(
      await place(key, { symbol: i.symbol, quantity: 4, pricetype: 'SL-M', trigger_price: trig }),
    );
    const sellTrig = tickRound(i, p * 0.98);
    const sellLimit = tickRound(i, p * 0.97);
    const sl = ok(
      await place(key, {
        symbol: i.symbol,
        action: 'SELL',
        quantity: 2,
        pricetype: 'SL',
        price: sellLimit,
        trigger_price: sellTrig,
      }),
    );
    expect((await status(key, slm)).order_status).toBe('trigger pending');
    expect((await status(key, sl)).order_status).toBe('trigger pending');
    expect((await orderbook(key)).statistics.total_trigger_pending_orders).toBe(2);

    gw.gateway.market.setPrice(i, tickRound(i, p * 1.03));
    gw.clock.advance(1000);
    gw.engine.tick();
    expect((await status(key, slm)).order_status).toBe('complete');
    expect((await status(key, sl)).order_status).toBe('trigger pending');

    gw.gateway.market.setPrice(i, tickRound(i, p * 0.975));
    gw.clock.advance(1000);
    gw.engine.tick();
    const o = await status(key, sl);
    expect(o.order_status).toBe('complete');
    expect(o.average_price).toBeGreaterThanOrEqual(sellLimit);
    expectInvariants();
  });
});

describe('stop orders and modify', () => {
  it('modifies a trigger-pending SL order (quantity, price, trigger) and it triggers at the new trigger', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'BHARTIARTL');
    const p = ltp(i);
    const id = ok(
      await place(key, {
        symbol: i.symbol,
        quantity: 5,
        pricetype: 'SL',
        trigger_price: away(i, 5),
        price: away(i, 6),
      }),
    );
    expect((await status(key, id)).order_status).toBe('trigger pending');
    const trig = tickRound(i, p * 1.02);
    const limit = tickRound(i, p * 1.03);
    const m = await gw.post('/api/v1/modifyorder', {
      apikey: key,
      strategy: 'test',
      orderid: id,
      exchange: 'NSE',
      symbol: i.symbol,
      action: 'BUY',
      product: 'MIS',
      pricetype: 'SL',
      quantity: 8,
      price: limit,
      trigger_price: trig,
      disclosed_quantity: 0,
    });
    expect(m.status, m.text).toBe(200);
    expect(await status(key, id)).toMatchObject({
      order_status: 'trigger pending',
      quantity: 8,
      price: limit,
      trigger_price: trig,
    });
    // Between the new trigger (2%) and the old one (5%): only the modified order triggers.
    gw.gateway.market.setPrice(i, tickRound(i, p * 1.025));
    gw.clock.advance(1000);
    gw.engine.tick();
    const o = await status(key, id);
    expect(o).toMatchObject({ order_status: 'complete', filled_quantity: 8 });
    expect(o.average_price).toBeLessThanOrEqual(limit);
    expectInvariants();
  });

  it('SL-M: a SELL stop triggers when the price falls to it and fills at the market; modify moves its trigger', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'KOTAKBANK');
    const p = ltp(i);
    ok(await place(key, { symbol: i.symbol, quantity: 6 })); // a long to protect
    const id = ok(
      await place(key, {
        symbol: i.symbol,
        action: 'SELL',
        quantity: 6,
        pricetype: 'SL-M',
        trigger_price: away(i, -5),
      }),
    );
    expect((await status(key, id)).order_status).toBe('trigger pending');
    const modify = (extra: Fields) =>
      gw.post('/api/v1/modifyorder', {
        apikey: key,
        strategy: 'test',
        orderid: id,
        exchange: 'NSE',
        symbol: i.symbol,
        action: 'SELL',
        product: 'MIS',
        pricetype: 'SL-M',
        quantity: 6,
        price: 0,
        trigger_price: 0,
        disclosed_quantity: 0,
        ...extra,
      });
    const withPrice = await modify({ price: tickRound(i, p * 0.9) });
    expect(withPrice.status).toBe(400);
    expect(withPrice.body.message).toBe('SL-M orders do not accept a price');
    const newTrig = tickRound(i, p * 0.98);
    expect((await modify({ trigger_price: newTrig })).status).toBe(200);
    expect((await status(key, id)).trigger_price).toBe(newTrig);

    gw.gateway.market.setPrice(i, tickRound(i, p * 0.985)); // above the stop: nothing
    gw.clock.advance(1000);
    gw.engine.tick();
    expect((await status(key, id)).order_status).toBe('trigger pending');
    gw.gateway.market.setPrice(i, tickRound(i, p * 0.975)); // through the stop
    gw.clock.advance(1000);
    gw.engine.tick();
    const o = await status(key, id);
    expect(o).toMatchObject({ order_status: 'complete', filled_quantity: 6 });
    // SL-M fills at the market once triggered: at or below the stop for a SELL.
    expect(o.average_price).toBeLessThanOrEqual(newTrig);
    expect(o.average_price).toBeGreaterThan(tickRound(i, p * 0.95));
    const pos = (await positions(key)).find((r) => r.symbol === i.symbol)!;
    expect(pos.quantity).toBe(0);
    expectInvariants();
  });

  it('refuses to modify cancelled and rejected orders, with the reason', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SUNPHARMA');
    const id = ok(
      await place(key, { symbol: i.symbol, quantity: 1, pricetype: 'LIMIT', price: away(i, -10) }),
    );
    expect(
      (await gw.post('/api/v1/cancelorder', { apikey: key, strategy: 'test', orderid: id })).status,
    ).toBe(200);
    const rejected = await place(key, { symbol: i.symbol, action: 'SELL', quantity: 1, product: 'CNC' });
    expect(rejected.status).toBe(400);
    const modify = (orderid: string) =>
      gw.post('/api/v1/modifyorder', {
        apikey: key,
        strategy: 'test',
        orderid,
        exchange: 'NSE',
        symbol: i.symbol,
        action: 'BUY',
        product: 'MIS',
        pricetype: 'LIMIT',
        quantity: 2,
        price: away(i, -11),
        trigger_price: 0,
        disclosed_quantity: 0,
      });
    const a = await modify(id);
    expect(a.status).toBe(400);
    expect(a.body.message).toBe('Cannot modify order in cancelled status');
    const b = await modify(rejected.body.orderid as string);
    expect(b.status).toBe(400);
    expect(b.body.message).toBe('Cannot modify order in rejected status');
  });
});
