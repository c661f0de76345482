// Single orders and account reads over real HTTP against the embedded gateway (ManualClock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../../src-main/paper/auth/key-store.js';
import { engineExtension } from '../../../src-main/paper/engine/extension.js';
import { checkLedgerInvariants } from '../../../src-main/paper/engine/ledger-invariants.js';
import type { PaperTradingEngine } from '../../../src-main/paper/engine/trading-engine.js';
import type { Instrument } from '../../../src-main/paper/instruments/instrument.js';
import { startTestGateway, type HttpResult, type TestGateway } from '../../helpers/paper-gateway.js';

let gw: TestGateway;
let engine: PaperTradingEngine;

beforeAll(async () => {
  gw = await startTestGateway({ extensions: [engineExtension({ onEngine: (e) => (engine = e) })] });
});
afterAll(async () => {
  await gw?.stop();
});

function newKey(): string {
  const key = generateApiKey();
  gw.gateway.keys.add(key);
  return key;
}

function inst(exchange: string, symbol: string): Instrument {
  const i = gw.gateway.master.get(exchange, symbol);
  if (!i) throw new Error(`no ${exchange}:${symbol}`);
  return i;
}

function firstFuture(exchange = 'NFO'): Instrument {
  const i = gw.gateway.master.all.find((x) => x.exchange === exchange && x.kind === 'FUT');
  if (!i) throw new Error('no future');
  return i;
}

type Fields = Record<string, unknown>;
const place = (key: string, f: Fields): Promise<HttpResult> =>
  gw.post('/api/v1/placeorder', { apikey: key, strategy: 'test', exchange: 'NSE', action: 'BUY', ...f });
const read = async (path: string, key: string, extra: Fields = {}): Promise<HttpResult> =>
  gw.post(`/api/v1/${path}`, { apikey: key, ...extra });

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
  const r = await read('orderstatus', key, { strategy: 'test', orderid });
  expect(r.status).toBe(200);
  return r.body.data as OrderRow;
}
async function funds(key: string): Promise<Record<string, string>> {
  return (await read('funds', key)).body.data as Record<string, string>;
}
async function positions(key: string): Promise<Record<string, unknown>[]> {
  return (await read('positionbook', key)).body.data as Record<string, unknown>[];
}
async function orderbook(key: string): Promise<{ orders: OrderRow[]; statistics: Record<string, number> }> {
  return (await read('orderbook', key)).body.data as {
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
const tickRound = (i: Instrument, p: number): number =>
  Number((Math.round(p / i.tickSize) * i.tickSize).toFixed(4));

function expectInvariants(): void {
  expect(checkLedgerInvariants(engine.ledger.db)).toEqual([]);
}

describe('validation (400, not recorded)', () => {
  it('refuses each rule with a readable message', async () => {
    const key = newKey();
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
    const onTick = engine.placeOrder('acct-cds', {
      ...base,
      exchange: 'CDS',
      symbol: usd!.symbol,
      quantity: usd!.lotsize,
      pricetype: 'LIMIT',
      price: 1.0025,
      disclosed_quantity: 0,
    });
    expect(onTick.ok).toBe(true);
    const offTick = engine.placeOrder('acct-cds', {
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
    const idx = engine.placeOrder('acct-cds', {
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
    const key = newKey();
    const id = ok(await place(key, { symbol: 'TCS', quantity: 1, price: 123.45 }));
    const o = await status(key, id);
    expect(o.price).toBe(0);
    expect(o.order_status).toBe('complete');
  });
});

describe('fills', () => {
  it('fills a MARKET order against the book and writes its trade', async () => {
    const key = newKey();
    const i = inst('NSE', 'INFY');
    const book = gw.gateway.market.book(i);
    const id = ok(await place(key, { symbol: 'INFY', quantity: 5 }));
    expect(id).toMatch(/^\d{14}$/);
    const o = await status(key, id);
    expect(o).toMatchObject({ order_status: 'complete', filled_quantity: 5, pending_quantity: 0 });
    expect(o.average_price).toBe(book.asks[0]!.price);
    expect(o.timestamp).toBe('20-Nov-2026 10:00:00');
    const trades = (await read('tradebook', key)).body.data as Record<string, unknown>[];
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
    const key = newKey();
    const i = inst('NSE', 'HDFCBANK');
    const shown = gw.gateway.market.book(i).asks.reduce((s, l) => s + l.quantity, 0);
    const qty = shown * 3;
    const id = ok(await place(key, { symbol: 'HDFCBANK', quantity: qty }));
    let o = await status(key, id);
    expect(o.order_status).toBe('open');
    expect(o.filled_quantity).toBe(shown);
    expect(o.pending_quantity).toBe(qty - shown);
    // Same second: the book's liquidity is used up, so a tick adds nothing.
    engine.tick();
    expect((await status(key, id)).filled_quantity).toBe(shown);
    for (let n = 0; n < 20 && o.order_status === 'open'; n++) {
      gw.clock.advance(1000);
      engine.tick();
      o = await status(key, id);
    }
    expect(o.order_status).toBe('complete');
    expect(o.filled_quantity).toBe(qty);
    const trades = ((await read('tradebook', key)).body.data as { quantity: number; price: number }[]).filter(
      () => true,
    );
    const value = trades.reduce((s, t) => s + t.quantity * t.price, 0);
    expect(trades.reduce((s, t) => s + t.quantity, 0)).toBe(qty);
    expect(o.average_price).toBeCloseTo(value / qty, 2);
    expectInvariants();
  });

  it('rests a LIMIT order until the price reaches it, then fills at the limit', async () => {
    const key = newKey();
    const i = inst('NSE', 'ICICIBANK');
    const limit = tickRound(i, ltp(i) * 0.97);
    const id = ok(await place(key, { symbol: i.symbol, quantity: 10, pricetype: 'LIMIT', price: limit }));
    expect((await status(key, id)).order_status).toBe('open');
    gw.gateway.market.setPrice(i, tickRound(i, limit * 0.99));
    engine.tick();
    const o = await status(key, id);
    expect(o).toMatchObject({ order_status: 'complete', filled_quantity: 10, average_price: limit });
    expectInvariants();
  });

  it('fills a marketable LIMIT at once from the book, at or better than its limit', async () => {
    const key = newKey();
    const i = inst('NSE', 'TCS');
    const limit = tickRound(i, ltp(i) * 1.01);
    const id = ok(await place(key, { symbol: i.symbol, quantity: 3, pricetype: 'LIMIT', price: limit }));
    const o = await status(key, id);
    expect(o.order_status).toBe('complete');
    expect(o.average_price).toBeLessThanOrEqual(limit);
  });

  it('holds SL-M and SL orders as trigger pending until triggered', async () => {
    const key = newKey();
    const i = inst('NSE', 'RELIANCE');
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
    engine.tick();
    expect((await status(key, slm)).order_status).toBe('complete');
    expect((await status(key, sl)).order_status).toBe('trigger pending');

    gw.gateway.market.setPrice(i, tickRound(i, p * 0.975));
    gw.clock.advance(1000);
    engine.tick();
    const o = await status(key, sl);
    expect(o.order_status).toBe('complete');
    expect(o.average_price).toBeGreaterThanOrEqual(sellLimit);
    expectInvariants();
  });
});

describe('modify and cancel', () => {
  it('modifies an open order and refuses terminal or unknown ones', async () => {
    const key = newKey();
    const i = inst('NSE', 'SBIN');
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
    const key = newKey();
    const i = inst('NSE', 'SBIN');
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

describe('positions and funds', () => {
  it('tracks buy, partial sell and reversal with realised P&L; a round trip restores capital + P&L', async () => {
    const key = newKey();
    const i = inst('NSE', 'ITC');
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
        await read('openposition', key, {
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
    const trades = (await read('tradebook', key)).body.data as {
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
    const key = newKey();
    const i = inst('NSE', 'RELIANCE');
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
    const key = newKey();
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
    const a = newKey();
    const b = newKey();
    const id = ok(await place(a, { symbol: 'INFY', quantity: 2 }));
    expect((await orderbook(b)).orders).toEqual([]);
    expect(await positions(b)).toEqual([]);
    expect((await read('orderstatus', b, { strategy: 'test', orderid: id })).status).toBe(404);
    expect((await gw.post('/api/v1/cancelorder', { apikey: b, strategy: 'test', orderid: id })).status).toBe(
      404,
    );
    expect((await orderbook(a)).orders.map((o) => o.orderid)).toEqual([id]);
  });

  it('lists orders newest first with statistics', async () => {
    const key = newKey();
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
    const key = newKey();
    const i = inst('NSE', 'TCS');
    ok(await place(key, { symbol: 'TCS', quantity: 7, product: 'CNC' }));
    const before = await funds(key);
    expect((await read('holdings', key)).body.data).toMatchObject({ holdings: [] });

    gw.clock.advance(24 * 3600 * 1000);
    const h = (await read('holdings', key)).body.data as {
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
    expect(((await read('holdings', key)).body.data as { holdings: unknown[] }).holdings).toEqual([]);
    expect((await funds(key)).utiliseddebits).toBe('0.00');
    expectInvariants();
  });
});
