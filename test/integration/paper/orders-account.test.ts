// Account reads after orders over real HTTP against the embedded gateway (ManualClock): positions,
// funds, margin, P&L, holdings and rejected orders.
import { describe, expect, it } from 'vitest';
import { tickRound } from '../../support/paper-gateway.js';
import { paise, useOrdersGateway } from './orders-fixture.js';

const { gw, place, status, funds, positions, orderbook, ok, ltp, expectInvariants, firstOf, away } =
  useOrdersGateway();

describe('positions and funds', () => {
  it('tracks buy, partial sell and reversal with realised P&L; a round trip restores capital + P&L', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'ITC');
    const capital = paise((await funds(key)).availablecash);
    const buyPrice = tickRound(i, ltp(i) * 1.01);
    // Marketable LIMITs fill from the book; read the fill prices from the trade book.
    ok(await place(key, { symbol: i.symbol, quantity: 100, pricetype: 'LIMIT', price: buyPrice }));
    let pos = (await positions(key)).find((p) => p.symbol === i.symbol)!;
    expect(pos.quantity).toBe(100);
    expect(pos.average_price).toMatch(/^\d+\.\d{2}$/);

    ok(await place(key, { symbol: i.symbol, action: 'SELL', quantity: 40 }));
    pos = (await positions(key)).find((p) => p.symbol === i.symbol)!;
    expect(pos.quantity).toBe(60);
    ok(await place(key, { symbol: i.symbol, action: 'SELL', quantity: 100 }));
    pos = (await positions(key)).find((p) => p.symbol === i.symbol)!;
    expect(pos.quantity).toBe(-40);
    expect(
      (
        await gw.api('openposition', key, {
          strategy: 'test',
          symbol: i.symbol,
          exchange: 'NSE',
          product: 'MIS',
        })
      ).body,
    ).toMatchObject({
      status: 'success',
      quantity: -40,
    });
    ok(await place(key, { symbol: i.symbol, action: 'BUY', quantity: 40 }));
    pos = (await positions(key)).find((p) => p.symbol === i.symbol)!;
    expect(pos.quantity).toBe(0);
    expect(pos.average_price).toBe('0.00');

    // Realised P&L from the trades themselves, in paise.
    const trades = (await gw.api('tradebook', key)).body.data as {
      action: string;
      quantity: number;
      price: number;
    }[];
    const flow = trades.reduce(
      (s, t) => s + (t.action === 'SELL' ? 1 : -1) * Math.round(t.quantity * t.price * 100),
      0,
    );
    const f = await funds(key);
    expect(paise(f.m2mrealized)).toBe(flow);
    expect(paise(f.availablecash)).toBe(capital + flow);
    expect(f.utiliseddebits).toBe('0.00');
    expect(f.m2munrealized).toBe('0.00');
    expect(Math.round(Number(pos.pnl) * 100)).toBe(flow);
    expectInvariants();
  });

  it('refuses an order beyond the funds, recording it as rejected with the real message', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'RELIANCE');
    const qty = Math.min(i.freezeQty, Math.ceil(20_000_000 / ltp(i)));
    const r = await place(key, { symbol: i.symbol, quantity: qty, product: 'CNC' });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(
      /^Insufficient funds\. Required: ₹\d+\.\d{2}, Available: ₹10000000\.00, Shortage: ₹\d+\.\d{2}$/,
    );
    expect(r.body.orderid).toMatch(/^\d{14}$/);
    const o = await status(key, r.body.orderid as string);
    expect(o.order_status).toBe('rejected');
    expect(o.rejection_reason).toBe(r.body.message);
    expect((await orderbook(key)).statistics.total_rejected_orders).toBe(1);
    expect((await funds(key)).availablecash).toBe('10000000.00');
  });

  it('rejects a CNC sell without shares and records it', async () => {
    const key = gw.newKey();
    const r = await place(key, { symbol: 'SBIN', action: 'SELL', quantity: 5, product: 'CNC' });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'Cannot sell SBIN in CNC. No positions or holdings available. CNC (delivery) requires existing shares. Use MIS for intraday short selling.',
    );
    expect((await status(key, r.body.orderid as string)).order_status).toBe('rejected');
    ok(await place(key, { symbol: 'SBIN', quantity: 3, product: 'CNC' }));
    const tooMany = await place(key, { symbol: 'SBIN', action: 'SELL', quantity: 5, product: 'CNC' });
    expect(tooMany.body.message).toBe(
      'Cannot sell 5 shares of SBIN in CNC. Only 3 shares available (Position: 3, Holdings: 0)',
    );
  });

  it('keeps accounts apart', async () => {
    const a = gw.newKey();
    const b = gw.newKey();
    const id = ok(await place(a, { symbol: 'INFY', quantity: 2 }));
    expect((await orderbook(b)).orders).toEqual([]);
    expect(await positions(b)).toEqual([]);
    expect((await gw.api('orderstatus', b, { strategy: 'test', orderid: id })).status).toBe(404);
    expect((await gw.post('/api/v1/cancelorder', { apikey: b, strategy: 'test', orderid: id })).status).toBe(
      404,
    );
    expect((await orderbook(a)).orders.map((o) => o.orderid)).toEqual([id]);
  });

  it('lists orders newest first with statistics', async () => {
    const key = gw.newKey();
    const first = ok(await place(key, { symbol: 'INFY', quantity: 1 }));
    const second = ok(await place(key, { symbol: 'INFY', quantity: 1, action: 'SELL' }));
    const book = await orderbook(key);
    expect(book.orders.map((o) => o.orderid)).toEqual([second, first]);
    expect(book.statistics).toMatchObject({
      total_buy_orders: 1,
      total_sell_orders: 1,
      total_completed_orders: 2,
      total_open_orders: 0,
      total_rejected_orders: 0,
      total_trigger_pending_orders: 0,
    });
  });
});

describe('holdings', () => {
  it('settles CNC buys into holdings at the IST day boundary', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'TCS');
    ok(await place(key, { symbol: 'TCS', quantity: 7, product: 'CNC' }));
    const before = await funds(key);
    expect((await gw.api('holdings', key)).body.data).toMatchObject({ holdings: [] });

    gw.clock.advance(24 * 3600 * 1000);
    const h = (await gw.api('holdings', key)).body.data as {
      holdings: Record<string, unknown>[];
      statistics: Record<string, number>;
    };
    expect(h.holdings).toHaveLength(1);
    expect(h.holdings[0]).toMatchObject({ symbol: 'TCS', exchange: 'NSE', product: 'CNC', quantity: 7 });
    const avg = h.holdings[0]!.average_price as number;
    const now = ltp(i);
    expect(h.statistics.totalinvvalue).toBeCloseTo(avg * 7, 2);
    expect(h.statistics.totalholdingvalue).toBeCloseTo(now * 7, 2);
    expect(h.statistics.totalprofitandloss).toBeCloseTo((now - avg) * 7, 1);
    // The day's CNC row has moved: nothing in the position book, cash unchanged by settlement.
    expect((await positions(key)).filter((p) => p.symbol === 'TCS')).toEqual([]);
    expect((await funds(key)).availablecash).toBe(before.availablecash);

    // Holdings can be sold in CNC the next day.
    ok(await place(key, { symbol: 'TCS', action: 'SELL', quantity: 7, product: 'CNC' }));
    expect(((await gw.api('holdings', key)).body.data as { holdings: unknown[] }).holdings).toEqual([]);
    expect((await funds(key)).utiliseddebits).toBe('0.00');
    expectInvariants();
  });
});

describe('rejections, margin, P&L and holdings figures', () => {
  it('a rejected order carries its reason in the order book row and in orderstatus', async () => {
    const key = gw.newKey();
    const r = await place(key, { symbol: 'TITAN', action: 'SELL', quantity: 2, product: 'CNC' });
    expect(r.status).toBe(400);
    const id = r.body.orderid as string;
    const reason =
      'Cannot sell TITAN in CNC. No positions or holdings available. CNC (delivery) requires existing shares. Use MIS for intraday short selling.';
    expect(r.body.message).toBe(reason);
    const book = await orderbook(key);
    expect(book.orders).toHaveLength(1);
    expect(book.orders[0]).toMatchObject({ orderid: id, order_status: 'rejected', rejection_reason: reason });
    expect(book.statistics.total_rejected_orders).toBe(1);
    expect(await status(key, id)).toMatchObject({ order_status: 'rejected', rejection_reason: reason });
    // Accepted orders carry an empty reason.
    const good = ok(await place(key, { symbol: 'TITAN', quantity: 1 }));
    expect((await status(key, good)).rejection_reason).toBe('');
  });

  it('blocks margin by product leverage (CNC 1×, MIS 5×, futures 10×, options 1×) and releases it on cancel', async () => {
    const key = gw.newKey();
    const capital = paise((await funds(key)).availablecash);
    expect(capital).toBe(10_000_000 * 100);
    const eq = gw.instrument('NSE', 'ASIANPAINT');
    const fut = firstOf('NFO', 'FUT');
    const opt = firstOf('NFO', 'CE');
    const eqPx = away(eq, -10);
    const futPx = away(fut, -10);
    const optPx = away(opt, -50);
    const ids = [
      ok(
        await place(key, {
          symbol: eq.symbol,
          quantity: 10,
          product: 'CNC',
          pricetype: 'LIMIT',
          price: eqPx,
        }),
      ),
      ok(
        await place(key, {
          symbol: eq.symbol,
          quantity: 10,
          product: 'MIS',
          pricetype: 'LIMIT',
          price: eqPx,
        }),
      ),
      ok(
        await place(key, {
          exchange: 'NFO',
          symbol: fut.symbol,
          quantity: fut.lotsize,
          product: 'NRML',
          pricetype: 'LIMIT',
          price: futPx,
        }),
      ),
      ok(
        await place(key, {
          exchange: 'NFO',
          symbol: opt.symbol,
          quantity: opt.lotsize,
          product: 'NRML',
          pricetype: 'LIMIT',
          price: optPx,
        }),
      ),
    ];
    const expected =
      Math.round(10 * eqPx * 100) +
      Math.ceil(Math.round(10 * eqPx * 100) / 5) +
      Math.ceil(Math.round(fut.lotsize * futPx * 100) / 10) +
      Math.round(opt.lotsize * optPx * 100);
    const during = await funds(key);
    expect(paise(during.utiliseddebits)).toBe(expected);
    expect(paise(during.availablecash)).toBe(capital - expected);
    const all = await gw.post('/api/v1/cancelallorder', { apikey: key, strategy: 'test' });
    expect(all.body.message).toBe('Canceled 4 orders. Failed to cancel 0 orders.');
    expect([...(all.body.canceled_orders as string[])].sort()).toEqual([...ids].sort());
    const after = await funds(key);
    expect(after.utiliseddebits).toBe('0.00');
    expect(paise(after.availablecash)).toBe(capital);
  });

  it('unrealised P&L follows the market price in the position book and funds; realised on close', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'HINDUNILVR');
    ok(await place(key, { symbol: i.symbol, quantity: 10 }));
    const trades = (await gw.api('tradebook', key)).body.data as { quantity: number; price: number }[];
    const cost = trades.reduce((s, t) => s + Math.round(t.quantity * t.price * 100), 0); // paise
    const up = tickRound(i, ltp(i) * 1.04);
    gw.gateway.market.setPrice(i, up);
    let pos = (await positions(key)).find((p) => p.symbol === i.symbol)!;
    const upPnl = Math.round(up * 10 * 100) - cost;
    expect(upPnl).toBeGreaterThan(0);
    expect(paise(pos.unrealized_pnl)).toBe(upPnl);
    expect(pos.ltp).toBe(up);
    expect(paise((await funds(key)).m2munrealized)).toBe(upPnl);

    const down = tickRound(i, ltp(i) * 0.9);
    gw.gateway.market.setPrice(i, down);
    pos = (await positions(key)).find((p) => p.symbol === i.symbol)!;
    const downPnl = Math.round(down * 10 * 100) - cost;
    expect(downPnl).toBeLessThan(0);
    expect(paise(pos.unrealized_pnl)).toBe(downPnl);
    expect(paise((await funds(key)).m2munrealized)).toBe(downPnl);

    ok(await place(key, { symbol: i.symbol, action: 'SELL', quantity: 10 }));
    pos = (await positions(key)).find((p) => p.symbol === i.symbol)!;
    // The closed position keeps its row for the day, at quantity 0.
    expect(pos).toMatchObject({ quantity: 0, average_price: '0.00', unrealized_pnl: 0 });
    const f = await funds(key);
    expect(f.m2munrealized).toBe('0.00');
    // As the live sandbox's closed row: the day's realised P&L in today_realized_pnl and in pnl.
    expect(pos).not.toHaveProperty('realized_pnl');
    expect(paise(f.m2mrealized)).toBe(paise(pos.today_realized_pnl));
    expect(pos.pnl).toBe(pos.today_realized_pnl);
    expect(paise(f.availablecash)).toBe(10_000_000 * 100 + paise(f.m2mrealized));
    expectInvariants();
  });

  it('holdings statistics: exact values from the fills and the last price', async () => {
    const key = gw.newKey();
    const a = gw.instrument('NSE', 'NESTLEIND');
    const b = gw.instrument('NSE', 'BAJFINANCE');
    ok(await place(key, { symbol: a.symbol, quantity: 8, product: 'CNC' }));
    ok(await place(key, { symbol: b.symbol, quantity: 3, product: 'CNC' }));
    const trades = (await gw.api('tradebook', key)).body.data as {
      symbol: string;
      quantity: number;
      price: number;
    }[];
    const costOf = (s: string) =>
      trades.filter((t) => t.symbol === s).reduce((n, t) => n + t.quantity * t.price, 0);
    gw.clock.advance(24 * 3600 * 1000);
    const la = tickRound(a, ltp(a) * 1.05);
    const lb = tickRound(b, ltp(b) * 0.97);
    gw.gateway.market.setPrice(a, la);
    gw.gateway.market.setPrice(b, lb);
    const h = (await gw.api('holdings', key)).body.data as {
      holdings: Record<string, number | string>[];
      statistics: Record<string, number>;
    };
    const r2 = (n: number) => Math.round(n * 100) / 100;
    const rows = [
      { i: a, q: 8, l: la, cost: costOf(a.symbol) },
      { i: b, q: 3, l: lb, cost: costOf(b.symbol) },
    ];
    for (const { i, q, l, cost } of rows) {
      const row = h.holdings.find((x) => x.symbol === i.symbol)!;
      const pnl = l * q - cost;
      expect(row).toMatchObject({ exchange: 'NSE', product: 'CNC', quantity: q, ltp: l });
      expect(row.average_price).toBeCloseTo(cost / q, 4);
      expect(row.pnl).toBe(r2(pnl));
      expect(row.pnlpercent).toBe(r2((pnl / cost) * 100));
    }
    const value = rows.reduce((n, r) => n + r.l * r.q, 0);
    const invested = rows.reduce((n, r) => n + r.cost, 0);
    const pnl = value - invested;
    expect(h.statistics).toEqual({
      totalholdingvalue: r2(value),
      totalinvvalue: r2(invested),
      totalprofitandloss: r2(pnl),
      totalpnlpercentage: r2((pnl / invested) * 100),
    });
  });
});
