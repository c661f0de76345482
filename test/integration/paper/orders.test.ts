// Single orders and account reads over real HTTP against the embedded gateway (ManualClock).
import { describe, expect, it } from 'vitest';
import { accountIdOf } from '../../../src-main/paper/auth/key-store.js';
import { checkLedgerInvariants } from '../../../src-main/paper/engine/ledger-invariants.js';
import type { Instrument } from '../../../src-main/paper/instruments/instrument.js';
import { useEngineGateway, tickRound, type HttpResult } from '../../support/paper-gateway.js';

const gw = useEngineGateway();

function firstFuture(exchange = 'NFO'): Instrument {
  const i = gw.gateway.master.all.find((x) => x.exchange === exchange && x.kind === 'FUT');
  if (!i) throw new Error('no future');
  return i;
}

type Fields = Record<string, unknown>;
const place = (key: string, f: Fields): Promise<HttpResult> =>
  gw.api('placeorder', key, { strategy: 'test', exchange: 'NSE', action: 'BUY', ...f });

interface OrderRow {
  orderid: string;
  order_status: string;
  quantity: number;
  filled_quantity: number;
  pending_quantity: number;
  average_price: number;
  price: number;
  trigger_price: number;
  rejection_reason: string;
  timestamp: string;
}
async function status(key: string, orderid: string): Promise<OrderRow> {
  const r = await gw.api('orderstatus', key, { strategy: 'test', orderid });
  expect(r.status).toBe(200);
  return r.body.data as OrderRow;
}
async function funds(key: string): Promise<Record<string, string>> {
  return (await gw.api('funds', key)).body.data as Record<string, string>;
}
async function positions(key: string): Promise<Record<string, unknown>[]> {
  return (await gw.api('positionbook', key)).body.data as Record<string, unknown>[];
}
async function orderbook(key: string): Promise<{ orders: OrderRow[]; statistics: Record<string, number> }> {
  return (await gw.api('orderbook', key)).body.data as {
    orders: OrderRow[];
    statistics: Record<string, number>;
  };
}
function ok(r: HttpResult): string {
  expect(r.status, r.text).toBe(200);
  return r.body.orderid as string;
}
/** Paise of a two-decimal string, to compare money exactly. */
const paise = (s: unknown): number => Math.round(Number(s) * 100);
const ltp = (i: Instrument): number => gw.gateway.market.lastPrice(i);

function expectInvariants(): void {
  expect(checkLedgerInvariants(gw.engine.ledger.db)).toEqual([]);
}

describe('validation (400, not recorded)', () => {
  it('refuses each rule with a readable message', async () => {
    const key = gw.newKey();
    const fut = firstFuture();
    const cases: [Fields, string | RegExp][] = [
      [{ symbol: 'NOPE', quantity: 1 }, 'Symbol NOPE not found on NSE'],
      [
        { symbol: 'SBIN', quantity: 1, product: 'NRML' },
        'NRML product not allowed for NSE equity segment. Use CNC for delivery or MIS for intraday.',
      ],
      [
        { exchange: 'NFO', symbol: fut.symbol, quantity: fut.lotsize, product: 'CNC' },
        'CNC product not allowed for NFO derivatives segment. Use NRML for carryforward or MIS for intraday.',
      ],
      [{ symbol: 'SBIN', quantity: 1, pricetype: 'LIMIT' }, 'LIMIT orders require price'],
      [{ symbol: 'SBIN', quantity: 1, pricetype: 'SL', price: 100 }, 'SL orders require trigger_price'],
      [{ symbol: 'SBIN', quantity: 1, pricetype: 'SL-M' }, 'SL-M orders require trigger_price'],
      [
        { exchange: 'NFO', symbol: fut.symbol, quantity: fut.lotsize + 1 },
        `Quantity must be in multiples of lot size ${fut.lotsize}`,
      ],
      [
        {
          exchange: 'NFO',
          symbol: fut.symbol,
          quantity: fut.lotsize * (Math.floor(fut.freezeQty / fut.lotsize) + 1),
        },
        /exceeds the freeze quantity 1800/,
      ],
      [
        { symbol: 'SBIN', quantity: 1, pricetype: 'LIMIT', price: 100.03 },
        'Price 100.03 is not a multiple of tick size 0.05',
      ],
      [
        { symbol: 'SBIN', quantity: 1, pricetype: 'SL-M', trigger_price: 100.01 },
        'Trigger price 100.01 is not a multiple of tick size 0.05',
      ],
      [
        { symbol: 'SBIN', quantity: 1, pricetype: 'SL', price: 100, trigger_price: 101 },
        /must not be above the limit price 100 for a BUY SL order/,
      ],
      [
        { symbol: 'SBIN', quantity: 1, action: 'SELL', pricetype: 'SL', price: 101, trigger_price: 100 },
        /must not be below the limit price 101 for a SELL SL order/,
      ],
      [{ symbol: 'SBIN', quantity: 0 }, /quantity/],
    ];
    for (const [fields, message] of cases) {
      const r = await place(key, fields);
      expect(r.status, JSON.stringify(fields)).toBe(400);
      expect(r.body.status).toBe('error');
      if (typeof message === 'string') expect(r.body.message).toBe(message);
      else expect(r.body.message).toMatch(message);
      expect(r.body.orderid).toBeUndefined();
    }
    expect((await orderbook(key)).orders).toEqual([]);
  });

  it('checks ticks in integer units (CDS ₹0.0025) and refuses indices', () => {
    const usd = gw.gateway.master.all.find((i) => i.exchange === 'CDS' && i.kind === 'FUT');
    expect(usd).toBeDefined();
    const base = { strategy: 't', action: 'BUY' as const, product: 'MIS' as const, trigger_price: 0 };
    const onTick = gw.engine.placeOrder('acct-cds', {
      ...base,
      exchange: 'CDS',
      symbol: usd!.symbol,
      quantity: usd!.lotsize,
      pricetype: 'LIMIT',
      price: 1.0025,
      disclosed_quantity: 0,
    });
    expect(onTick.ok).toBe(true);
    const offTick = gw.engine.placeOrder('acct-cds', {
      ...base,
      exchange: 'CDS',
      symbol: usd!.symbol,
      quantity: usd!.lotsize,
      pricetype: 'LIMIT',
      price: 1.001,
      disclosed_quantity: 0,
    });
    expect(offTick).toMatchObject({
      ok: false,
      status: 400,
      message: 'Price 1.001 is not a multiple of tick size 0.0025',
    });
    const index = gw.gateway.master.all.find((i) => i.kind === 'INDEX');
    const idx = gw.engine.placeOrder('acct-cds', {
      ...base,
      exchange: index!.exchange,
      symbol: index!.symbol,
      quantity: 1,
      pricetype: 'MARKET',
      price: 0,
      disclosed_quantity: 0,
    });
    expect(idx).toMatchObject({ ok: false, status: 400 });
    if (!idx.ok) expect(idx.message).toMatch(/index and cannot be traded/);
  });

  it('ignores the price of a MARKET order', async () => {
    const key = gw.newKey();
    const id = ok(await place(key, { symbol: 'TCS', quantity: 1, price: 123.45 }));
    const o = await status(key, id);
    expect(o.price).toBe(0);
    expect(o.order_status).toBe('complete');
  });
});

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

// ---- Issue 3 audit: rules checked per exchange and per field, with exact figures ----

function firstOf(exchange: string, kind: Instrument['kind'], minLot = 1): Instrument {
  const i = gw.gateway.master.all.find(
    (x) => x.exchange === exchange && x.kind === kind && x.lotsize >= minLot,
  );
  if (!i) throw new Error(`no ${kind} on ${exchange}`);
  return i;
}
/** A price on the instrument's grid `pct` percent away from the last price (a BUY below it rests). */
const away = (i: Instrument, pct: number): number => tickRound(i, ltp(i) * (1 + pct / 100));
const show = (n: number): string => String(Number(n.toFixed(4)));

describe('request fields (spec §2.1): strings or numbers, defaults', () => {
  it('placeorder takes every field as a string or as a number, with the same result', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'AXISBANK');
    const limit = away(i, -10);
    const trig = away(i, -9.5);
    const asStrings = ok(
      await place(key, {
        symbol: 'AXISBANK',
        quantity: '10',
        pricetype: 'LIMIT',
        product: 'MIS',
        price: show(limit),
        trigger_price: '0',
        disclosed_quantity: '0',
      }),
    );
    const asNumbers = ok(
      await place(key, {
        symbol: 'AXISBANK',
        quantity: 10,
        pricetype: 'LIMIT',
        product: 'MIS',
        price: limit,
        trigger_price: 0,
        disclosed_quantity: 0,
      }),
    );
    const slStrings = ok(
      await place(key, {
        symbol: 'AXISBANK',
        action: 'SELL',
        quantity: '3',
        pricetype: 'SL',
        price: show(limit),
        trigger_price: show(trig),
      }),
    );
    for (const id of [asStrings, asNumbers]) {
      expect(await status(key, id)).toMatchObject({
        quantity: 10,
        price: limit,
        trigger_price: 0,
        order_status: 'open',
      });
    }
    expect(await status(key, slStrings)).toMatchObject({
      quantity: 3,
      price: limit,
      trigger_price: trig,
    });
    expect(gw.engine.order(accountIdOf(key), asStrings)?.disclosed_quantity).toBe(0);
  });

  it('price "812.35" is read exactly (no float drift) and kept on the order', async () => {
    const key = gw.newKey();
    const id = ok(
      await place(key, { symbol: 'LT', action: 'SELL', quantity: '1', pricetype: 'LIMIT', price: '812.35' }),
    );
    const o = await status(key, id);
    expect(o.price).toBe(812.35);
  });

  it('applies the defaults: MARKET, MIS, price 0, trigger 0, disclosed 0', async () => {
    const key = gw.newKey();
    const id = ok(await place(key, { symbol: 'WIPRO', quantity: '2' }));
    const row = (await status(key, id)) as unknown as Record<string, unknown>;
    expect(row).toMatchObject({ pricetype: 'MARKET', product: 'MIS', price: 0, trigger_price: 0 });
    const book = await orderbook(key);
    expect(book.orders[0]).toMatchObject({ orderid: id, pricetype: 'MARKET', product: 'MIS' });
    expect(gw.engine.order(accountIdOf(key), id)).toMatchObject({
      disclosed_quantity: 0,
      status: 'complete',
    });
  });

  it('refuses malformed numbers with a message naming the field', async () => {
    const key = gw.newKey();
    const cases: [Fields, string][] = [
      [{ symbol: 'SBIN', quantity: 'ten' }, 'quantity must be a number'],
      [{ symbol: 'SBIN', quantity: '1.5' }, 'quantity must be a whole number'],
      [{ symbol: 'SBIN', quantity: '-3' }, 'quantity must be a positive number'],
      [{ symbol: 'SBIN', quantity: 1, pricetype: 'LIMIT', price: 'abc' }, 'price must be a number'],
      [
        { symbol: 'SBIN', quantity: 1, pricetype: 'LIMIT', price: '-1' },
        'price must be a non-negative number',
      ],
      [
        { symbol: 'SBIN', quantity: 1, pricetype: 'STOP' },
        'pricetype must be one of: MARKET, LIMIT, SL, SL-M',
      ],
      [{ symbol: 'SBIN', quantity: 1, product: 'MTF' }, 'product must be one of: MIS, CNC, NRML'],
    ];
    for (const [f, message] of cases) {
      const r = await place(key, f);
      expect(r.status, JSON.stringify(f)).toBe(400);
      expect(String(r.body.message)).toContain(message);
    }
    expect((await orderbook(key)).orders).toEqual([]);
  });

  it('modifyorder takes every field as a string', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'MARUTI');
    const id = ok(
      await place(key, { symbol: 'MARUTI', quantity: 2, pricetype: 'LIMIT', price: away(i, -10) }),
    );
    const newLimit = away(i, -11);
    const r = await gw.post('/api/v1/modifyorder', {
      apikey: key,
      strategy: 'test',
      orderid: id,
      exchange: 'NSE',
      symbol: 'MARUTI',
      action: 'BUY',
      product: 'MIS',
      pricetype: 'LIMIT',
      quantity: '4',
      price: show(newLimit),
      trigger_price: '0',
      disclosed_quantity: '0',
    });
    expect(r.status, r.text).toBe(200);
    expect(await status(key, id)).toMatchObject({ quantity: 4, price: newLimit, order_status: 'open' });
  });
});

describe('product and exchange rules, lots and ticks on every exchange', () => {
  it('refuses NRML on NSE/BSE and CNC on NFO/BFO/MCX/CDS with the sandbox messages; accepts the others', async () => {
    const key = gw.newKey();
    for (const ex of ['NSE', 'BSE']) {
      const r = await place(key, { exchange: ex, symbol: 'SBIN', quantity: 1, product: 'NRML' });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(
        `NRML product not allowed for ${ex} equity segment. Use CNC for delivery or MIS for intraday.`,
      );
      ok(await place(key, { exchange: ex, symbol: 'SBIN', quantity: 1, product: 'CNC' }));
    }
    for (const ex of ['NFO', 'BFO', 'MCX', 'CDS']) {
      const f = firstOf(ex, 'FUT');
      const base = {
        exchange: ex,
        symbol: f.symbol,
        quantity: f.lotsize,
        pricetype: 'LIMIT',
        price: away(f, -20),
      };
      const r = await place(key, { ...base, product: 'CNC' });
      expect(r.status, ex).toBe(400);
      expect(r.body.message).toBe(
        `CNC product not allowed for ${ex} derivatives segment. Use NRML for carryforward or MIS for intraday.`,
      );
      ok(await place(key, { ...base, product: 'NRML' }));
    }
  });

  it('quantities in lots on NFO, BFO and MCX; CDS contracts have lot 1', async () => {
    const key = gw.newKey();
    for (const ex of ['NFO', 'BFO', 'MCX']) {
      const f = firstOf(ex, 'FUT', 2);
      const base = {
        exchange: ex,
        symbol: f.symbol,
        product: 'NRML',
        pricetype: 'LIMIT',
        price: away(f, -20),
      };
      const r = await place(key, { ...base, quantity: f.lotsize + 1 });
      expect(r.status, ex).toBe(400);
      expect(r.body.message).toBe(`Quantity must be in multiples of lot size ${f.lotsize}`);
      ok(await place(key, { ...base, quantity: 2 * f.lotsize }));
    }
    const usd = firstOf('CDS', 'FUT');
    expect(usd.lotsize).toBe(1);
    ok(
      await place(key, {
        exchange: 'CDS',
        symbol: usd.symbol,
        product: 'NRML',
        quantity: 3,
        pricetype: 'LIMIT',
        price: away(usd, -20),
      }),
    );
  });

  it.each([
    ['NSE', 'EQ', 0.05],
    ['BSE', 'EQ', 0.05],
    ['NFO', 'FUT', 0.1],
    ['BFO', 'FUT', 0.05],
    ['MCX', 'FUT', 1],
    ['CDS', 'FUT', 0.0025],
  ] as const)('%s %s: prices and triggers on the %s tick grid', async (ex, kind, tick) => {
    const key = gw.newKey();
    const i = ex === 'NSE' || ex === 'BSE' ? gw.instrument(ex, 'SBIN') : firstOf(ex, kind);
    expect(i.tickSize).toBe(tick);
    const product = kind === 'EQ' ? 'MIS' : 'NRML';
    const on = away(i, -20);
    const off = Number((on + tick * 0.4).toFixed(4));
    const base = { exchange: ex, symbol: i.symbol, product, quantity: i.lotsize };
    ok(await place(key, { ...base, pricetype: 'LIMIT', price: show(on) }));
    const badPrice = await place(key, { ...base, pricetype: 'LIMIT', price: off });
    expect(badPrice.status).toBe(400);
    expect(badPrice.body.message).toBe(`Price ${show(off)} is not a multiple of tick size ${show(tick)}`);
    const trig = away(i, 20);
    ok(await place(key, { ...base, pricetype: 'SL-M', trigger_price: trig }));
    const offTrig = Number((trig + tick * 0.4).toFixed(4));
    const badTrig = await place(key, { ...base, pricetype: 'SL-M', trigger_price: offTrig });
    expect(badTrig.status).toBe(400);
    expect(badTrig.body.message).toBe(
      `Trigger price ${show(offTrig)} is not a multiple of tick size ${show(tick)}`,
    );
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
    expect(paise(f.m2mrealized)).toBe(paise(pos.realized_pnl));
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

describe('test-only controls', () => {
  it('are not HTTP routes: setprice/advance/tick/reset answer 404', async () => {
    const key = gw.newKey();
    for (const path of ['setprice', 'setPrice', 'set_price', 'advance', 'clock', 'tick', 'reset']) {
      const r = await gw.post(`/api/v1/${path}`, { apikey: key, symbol: 'SBIN', exchange: 'NSE', price: 1 });
      expect(r.status, path).toBe(404);
    }
  });
});

// Own gateway: its commits are made to fail. With group commit an answer waits for the commit of
// its event-loop turn (extension.ts onSend), so a failed commit can never be acknowledged as 200.
describe('no answer before the commit', () => {
  const own = useEngineGateway();

  it('a placeorder whose commit fails is answered as an error and leaves nothing behind', async () => {
    const body = {
      apikey: own.apiKey,
      strategy: 'test',
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY',
      quantity: 2,
    };
    const ledger = own.engine.ledger;
    const realCommit = ledger.commit.bind(ledger);
    let failures = 1;
    ledger.commit = () => {
      if (failures-- > 0) throw new Error('disk full (simulated)');
      realCommit();
    };
    const errors: unknown[] = [];
    const realError = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    let r: HttpResult;
    try {
      r = await own.post('/api/v1/placeorder', body);
    } finally {
      console.error = realError;
    }
    expect(r.status).toBe(500);
    expect(r.body.status).toBe('error');
    expect(errors.length).toBeGreaterThan(0);
    const book = await own.post('/api/v1/orderbook', { apikey: own.apiKey });
    expect((book.body.data as { orders: unknown[] }).orders).toEqual([]);
    expect((await own.post('/api/v1/funds', { apikey: own.apiKey })).body.data).toMatchObject({
      availablecash: '10000000.00',
      utiliseddebits: '0.00',
    });
    // The next order commits and is acknowledged.
    const next = await own.post('/api/v1/placeorder', body);
    expect(next.status).toBe(200);
    const after = await own.post('/api/v1/orderbook', { apikey: own.apiKey });
    expect((after.body.data as { orders: { orderid: string }[] }).orders.map((o) => o.orderid)).toEqual([
      next.body.orderid,
    ]);
    expect(checkLedgerInvariants(ledger.db)).toEqual([]);
  });
});
