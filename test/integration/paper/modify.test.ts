// modifyorder over HTTP: a modify that makes an order marketable fills like a placement (at market
// prices from the book), and a modify changes exactly what it may (quantity, pricetype, price,
// trigger_price, disclosed_quantity) or is refused naming the field; it never reports a change that
// did not happen.
import { describe, expect, it } from 'vitest';
import { accountIdOf } from '../../../src-main/paper/auth/key-store.js';
import { checkLedgerInvariants } from '../../../src-main/paper/engine/ledger-invariants.js';
import type { Instrument } from '../../../src-main/paper/instruments/instrument.js';
import { useEngineGateway, tickRound } from '../../support/paper-gateway.js';

const gw = useEngineGateway();

type Fields = Record<string, unknown>;

const ltp = (i: Instrument): number => gw.gateway.market.lastPrice(i);

interface OrderRow {
  order_status: string;
  pricetype: string;
  quantity: number;
  price: number;
  trigger_price: number;
  filled_quantity: number;
  average_price: number;
}
async function statusOf(key: string, orderid: string): Promise<OrderRow> {
  const r = await gw.api('orderstatus', key, { strategy: 'mod', orderid });
  expect(r.status, r.text).toBe(200);
  return r.body.data as OrderRow;
}

/** A resting order of `quantity` SBIN-like shares and a modify that starts from its own fields. */
async function resting(key: string, i: Instrument, f: Fields) {
  const order: Fields = {
    strategy: 'mod',
    exchange: 'NSE',
    symbol: i.symbol,
    action: 'BUY',
    product: 'MIS',
    pricetype: 'LIMIT',
    quantity: 5,
    price: tickRound(i, ltp(i) * 0.95),
    trigger_price: 0,
    disclosed_quantity: 0,
    ...f,
  };
  const r = await gw.api('placeorder', key, order);
  expect(r.status, r.text).toBe(200);
  const orderid = r.body.orderid as string;
  const modify = (changes: Fields) => gw.api('modifyorder', key, { ...order, orderid, ...changes });
  return { orderid, modify };
}

describe('a modify that crosses the market fills like a placement', () => {
  it('a BUY LIMIT moved above the ask takes the book at the ask, not at the new limit', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'INFY');
    const { orderid, modify } = await resting(key, i, {});
    expect((await statusOf(key, orderid)).order_status).toBe('open');
    const ask = gw.gateway.market.book(i).asks[0]!.price;
    const above = tickRound(i, ask * 1.03);
    const m = await modify({ price: above });
    expect(m.status, m.text).toBe(200);
    expect(m.body.message).toBe('Order modified successfully');
    const o = await statusOf(key, orderid);
    expect(o).toMatchObject({ order_status: 'complete', filled_quantity: 5, price: above });
    expect(o.average_price).toBe(ask);
    expect(checkLedgerInvariants(gw.engine.ledger.db)).toEqual([]);
  });

  it('a SELL LIMIT moved below the bid takes the book at the bid', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'TCS');
    const { orderid, modify } = await resting(key, i, {
      action: 'SELL',
      price: tickRound(i, ltp(i) * 1.05),
    });
    const bid = gw.gateway.market.book(i).bids[0]!.price;
    const below = tickRound(i, bid * 0.97);
    expect((await modify({ price: below })).status).toBe(200);
    const o = await statusOf(key, orderid);
    expect(o).toMatchObject({ order_status: 'complete', filled_quantity: 5 });
    expect(o.average_price).toBe(bid);
  });

  it('a modify that stays away from the market keeps the order resting', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'ITC');
    const { orderid, modify } = await resting(key, i, {});
    const lower = tickRound(i, ltp(i) * 0.9);
    expect((await modify({ price: lower })).status).toBe(200);
    expect(await statusOf(key, orderid)).toMatchObject({ order_status: 'open', price: lower });
  });
});

describe('what a modify may change', () => {
  it('LIMIT → MARKET converts the order, which then fills at the market', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'HDFCBANK');
    const { orderid, modify } = await resting(key, i, {});
    const ask = gw.gateway.market.book(i).asks[0]!.price;
    const m = await modify({ pricetype: 'MARKET', price: 0 });
    expect(m.status, m.text).toBe(200);
    const o = await statusOf(key, orderid);
    expect(o).toMatchObject({ pricetype: 'MARKET', order_status: 'complete', filled_quantity: 5 });
    expect(o.average_price).toBe(ask);
    expect(checkLedgerInvariants(gw.engine.ledger.db)).toEqual([]);
  });

  it('LIMIT → SL waits for its trigger; SL → LIMIT rests again; the price is kept when sent as 0', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'RELIANCE');
    const { orderid, modify } = await resting(key, i, {});
    const limit = tickRound(i, ltp(i) * 1.06);
    const trigger = tickRound(i, ltp(i) * 1.05);
    expect((await modify({ pricetype: 'SL', price: limit, trigger_price: trigger })).status).toBe(200);
    expect(await statusOf(key, orderid)).toMatchObject({
      pricetype: 'SL',
      order_status: 'trigger pending',
      price: limit,
      trigger_price: trigger,
    });
    const back = tickRound(i, ltp(i) * 0.9);
    expect((await modify({ pricetype: 'LIMIT', price: back, trigger_price: 0 })).status).toBe(200);
    expect(await statusOf(key, orderid)).toMatchObject({
      pricetype: 'LIMIT',
      order_status: 'open',
      price: back,
      trigger_price: 0,
    });
    // Price 0 keeps the limit; the quantity changes.
    expect((await modify({ pricetype: 'LIMIT', price: 0, quantity: 7 })).status).toBe(200);
    expect(await statusOf(key, orderid)).toMatchObject({ price: back, quantity: 7 });
  });

  it('SL-M without a trigger, or a MARKET with a price, is refused naming the field', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const { orderid, modify } = await resting(key, i, {});
    const a = await modify({ pricetype: 'SL-M', price: 0, trigger_price: 0 });
    expect(a.status).toBe(400);
    expect(a.body.message).toBe('SL-M orders require trigger_price');
    const b = await modify({ pricetype: 'MARKET' });
    expect(b.status).toBe(400);
    expect(b.body.message).toBe('MARKET orders do not accept a price');
    expect(await statusOf(key, orderid)).toMatchObject({ pricetype: 'LIMIT', order_status: 'open' });
  });

  it('disclosed_quantity is applied', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const { orderid, modify } = await resting(key, i, {});
    expect((await modify({ disclosed_quantity: 2 })).status).toBe(200);
    expect(gw.engine.order(accountIdOf(key), orderid)).toMatchObject({ disclosed_quantity: 2 });
  });

  it.each([
    ['exchange', { exchange: 'BSE' }],
    ['symbol', { symbol: 'INFY' }],
    ['action', { action: 'SELL' }],
    ['product', { product: 'CNC' }],
  ])('a different %s is refused with 400 naming it, and nothing changes', async (field, change) => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const { orderid, modify } = await resting(key, i, {});
    const before = await statusOf(key, orderid);
    const r = await modify({ ...change, quantity: 9 });
    expect(r.status).toBe(400);
    expect(r.body.status).toBe('error');
    expect(String(r.body.message)).toMatch(new RegExp(`^modifyorder cannot change ${field}:`));
    expect(await statusOf(key, orderid)).toEqual(before);
  });

  it('the symbol in any case and another strategy tag are the same order', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const { orderid, modify } = await resting(key, i, {});
    const r = await modify({ symbol: 'sbin', strategy: 'desk', quantity: 6 });
    expect(r.status, r.text).toBe(200);
    expect((await statusOf(key, orderid)).quantity).toBe(6);
  });

  it('a modify that changes nothing says so instead of "modified"', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const { orderid, modify } = await resting(key, i, {});
    const r = await modify({});
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({
      status: 'success',
      orderid,
      message: `No change: order ${orderid} already has these values`,
      mode: 'analyze',
    });
  });
});
