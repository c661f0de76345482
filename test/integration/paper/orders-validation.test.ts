// Order input over real HTTP against the embedded gateway (ManualClock): refusals with readable
// messages, fields as strings or numbers with their defaults, product, lot and tick rules per exchange,
// and no test-only routes.
import { describe, expect, it } from 'vitest';
import { accountIdOf } from '../../../src-main/paper/auth/key-store.js';
import { show, useOrdersGateway, type Fields } from './orders-fixture.js';

const { gw, firstFuture, place, status, orderbook, ok, firstOf, away } = useOrdersGateway();

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

describe('test-only controls', () => {
  it('are not HTTP routes: setprice/advance/tick/reset answer 404', async () => {
    const key = gw.newKey();
    for (const path of ['setprice', 'setPrice', 'set_price', 'advance', 'clock', 'tick', 'reset']) {
      const r = await gw.post(`/api/v1/${path}`, { apikey: key, symbol: 'SBIN', exchange: 'NSE', price: 1 });
      expect(r.status, path).toBe(404);
    }
  });
});
