// Composite order operations end to end: real HTTP, the real engine over SQLite, ManualClock prices.
// Positions are set up with real orders first, then the composite call, then the books are checked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../../src-main/paper/auth/key-store.js';
import { resetPaperBooks } from '../../../src-main/paper/engine/extension.js';
import { checkLedgerInvariants } from '../../../src-main/paper/engine/ledger-invariants.js';
import {
  startTestGateway,
  useEngineGateway,
  tickRound,
  type HttpResult,
} from '../../support/paper-gateway.js';

const gw = useEngineGateway();

type Fields = Record<string, unknown>;
type Action = 'BUY' | 'SELL';

function ok(r: HttpResult): string {
  expect(r.status, r.text).toBe(200);
  expect(r.body.status, r.text).toBe('success');
  return r.body.orderid as string;
}
async function market(key: string, action: Action, quantity: number, strategy = 'setup', symbol = 'SBIN') {
  const id = ok(
    await gw.api('placeorder', key, { strategy, exchange: 'NSE', symbol, action, quantity, product: 'MIS' }),
  );
  expect((await orderStatus(key, id)).order_status).toBe('complete');
  return id;
}
interface OrderRow {
  orderid: string;
  order_status: string;
  quantity: number;
  action: string;
  pricetype: string;
  price: number;
  strategy?: string;
  symbol: string;
}
async function orderStatus(key: string, orderid: string): Promise<OrderRow> {
  return (await gw.api('orderstatus', key, { strategy: 'x', orderid })).body.data as OrderRow;
}
async function orders(key: string): Promise<OrderRow[]> {
  return ((await gw.api('orderbook', key, {})).body.data as { orders: OrderRow[] }).orders;
}
async function net(key: string, symbol = 'SBIN'): Promise<number> {
  const rows = (await gw.api('positionbook', key, {})).body.data as { symbol: string; quantity: number }[];
  return rows.filter((r) => r.symbol === symbol).reduce((a, r) => a + Number(r.quantity), 0);
}
async function strategyQty(key: string, strategy: string, symbol = 'SBIN'): Promise<number> {
  const r = await gw.api('positionsopen', key, { strategy, symbol, exchange: 'NSE', product: 'MIS' });
  expect(r.status, r.text).toBe(200);
  return r.body.quantity as number;
}
async function modeVersion(key: string): Promise<number> {
  return ((await gw.api('analyzer', key, {})).body.data as { mode_version: number }).mode_version;
}

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

describe('cancelallorder', () => {
  // Upstream (broker plugins and sandbox) cancels the whole account's working orders: a panic
  // "cancel all" must leave nothing working. The strategy field is required but does not scope it.
  it('cancels every open LIMIT and trigger-pending SL order of the account, whatever the strategy', async () => {
    const key = gw.newKey();
    const other = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const p = gw.gateway.market.lastPrice(i);
    const limit = (k: string, strategy: string) =>
      gw.api('placeorder', k, {
        strategy,
        exchange: 'NSE',
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 1,
        pricetype: 'LIMIT',
        price: tickRound(i, p * 0.9),
      });
    const stop = (strategy: string) =>
      gw.api('placeorder', key, {
        strategy,
        exchange: 'NSE',
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 1,
        pricetype: 'SL',
        trigger_price: tickRound(i, p * 1.05),
        price: tickRound(i, p * 1.06),
      });
    const working = [
      ok(await limit(key, 'A')),
      ok(await limit(key, 'A')),
      ok(await stop('A')),
      ok(await limit(key, 'B')),
      ok(await stop('B')),
    ];
    const done = await market(key, 'BUY', 1, 'A');
    const otherAccount = ok(await limit(other, 'A'));
    expect((await orderStatus(key, working[2] as string)).order_status).toBe('trigger pending');

    const r = await gw.api('cancelallorder', key, { strategy: 'A' });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Canceled 5 orders. Failed to cancel 0 orders.');
    expect([...(r.body.canceled_orders as string[])].sort()).toEqual([...working].sort());
    expect(r.body.failed_cancellations).toEqual([]);
    for (const id of working) expect((await orderStatus(key, id)).order_status).toBe('cancelled');
    expect((await orderStatus(key, done)).order_status).toBe('complete');
    // Another key is another account: untouched.
    expect((await orderStatus(other, otherAccount)).order_status).toBe('open');
    const f = (await gw.api('funds', key, {})).body.data as Record<string, string>;
    const position = Number(f.utiliseddebits);
    expect(position).toBeGreaterThan(0); // only the filled BUY's position margin is left
    expect(checkLedgerInvariants(gw.engine.ledger.db)).toEqual([]);

    const again = await gw.api('cancelallorder', key, { strategy: 'B' });
    expect(again.body).toEqual({
      status: 'success',
      canceled_orders: [],
      failed_cancellations: [],
      message: 'No open orders to cancel',
      mode: 'analyze',
    });
  });
});

describe('closeposition and positionsopen', () => {
  it('closes one strategy on a shared symbol and leaves the other', async () => {
    const key = gw.newKey();
    await market(key, 'BUY', 10, 'A');
    await market(key, 'SELL', 4, 'B');
    await market(key, 'SELL', 3, 'A', 'INFY');
    expect(await strategyQty(key, 'A')).toBe(10);
    expect(await net(key)).toBe(6);

    const r = await gw.api('closeposition', key, { strategy: 'A' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      status: 'success',
      message: 'All Open Positions SquaredOff',
      closed_positions: 2,
    });

    expect(await strategyQty(key, 'A')).toBe(0);
    expect(await strategyQty(key, 'A', 'INFY')).toBe(0);
    expect(await strategyQty(key, 'B')).toBe(-4);
    expect(await net(key)).toBe(-4);
    expect(await net(key, 'INFY')).toBe(0);
    const closing = (await orders(key)).slice(0, 2);
    expect(closing.every((o) => o.strategy === 'A' && o.pricetype === 'MARKET')).toBe(true);

    const again = await gw.api('closeposition', key, { strategy: 'A' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      status: 'success',
      message: 'No open positions to close',
      code: 'NO_STRATEGY_EXPOSURE',
    });
  });

  it('positionsopen ignores the hosted snapshot fields', async () => {
    const key = gw.newKey();
    await market(key, 'BUY', 7, 'A');
    const r = await gw.api('positionsopen', key, {
      strategy: 'A',
      symbol: 'SBIN',
      exchange: 'NSE',
      product: 'MIS',
      expected_mode: 'live',
      expected_balance_type: 'live',
      expected_mode_version: 7,
      request_id: 'close-check-001',
    });
    expect(r.body).toEqual({ status: 'success', quantity: 7 });
  });

  describe('hosted variant', () => {
    const hosted = async (key: string, request_id: string, extra: Fields = {}) =>
      gw.api('closeposition', key, {
        strategy: 'A',
        expected_mode: 'analyze',
        expected_balance_type: 'sandbox',
        expected_mode_version: await modeVersion(key),
        request_id,
        ...extra,
      });

    it('a repeated request_id returns the first answer and does not act again', async () => {
      const key = gw.newKey();
      await market(key, 'BUY', 10, 'A');
      const first = await hosted(key, 'close-001');
      expect(first.status, first.text).toBe(200);
      expect(first.body).toMatchObject({
        status: 'success',
        message: 'All Open Positions SquaredOff',
        mode: 'analyze',
        balance_type: 'sandbox',
      });
      await market(key, 'BUY', 5, 'A'); // new exposure: a second close would act
      const count = (await orders(key)).length;
      const again = await hosted(key, 'close-001');
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text); // byte-identical
      expect((await orders(key)).length).toBe(count);
      expect(await strategyQty(key, 'A')).toBe(5);
    });

    it('replays NO_STRATEGY_EXPOSURE as well', async () => {
      const key = gw.newKey();
      const first = await hosted(key, 'close-002');
      expect(first.body.code).toBe('NO_STRATEGY_EXPOSURE');
      await market(key, 'BUY', 5, 'A');
      const again = await hosted(key, 'close-002');
      expect(again.text).toBe(first.text);
      expect(await strategyQty(key, 'A')).toBe(5);
    });

    it('a request_id reused for another strategy is refused (409 naming request_id) and closes nothing', async () => {
      const key = gw.newKey();
      await market(key, 'BUY', 10, 'A');
      await market(key, 'BUY', 4, 'B');
      expect((await hosted(key, 'close-reuse')).body.message).toBe('All Open Positions SquaredOff');
      const count = (await orders(key)).length;
      const reused = await hosted(key, 'close-reuse', { strategy: 'B' });
      expect(reused.status).toBe(409);
      expect(reused.body).toMatchObject({ status: 'error', error_code: 'REQUEST_ID_REUSED' });
      expect(String(reused.body.message)).toContain('request_id close-reuse');
      expect((await orders(key)).length).toBe(count);
      expect(await strategyQty(key, 'B')).toBe(4);
      // The original request still replays; a fresh id for B acts.
      expect((await hosted(key, 'close-reuse')).body.message).toBe('All Open Positions SquaredOff');
      expect((await hosted(key, 'close-b', { strategy: 'B' })).body.message).toBe(
        'All Open Positions SquaredOff',
      );
      expect(await strategyQty(key, 'B')).toBe(0);
    });

    it('request ids are per account', async () => {
      const a = gw.newKey();
      const b = gw.newKey();
      await market(b, 'BUY', 2, 'A');
      expect((await hosted(a, 'shared-id')).body.code).toBe('NO_STRATEGY_EXPOSURE');
      expect((await hosted(b, 'shared-id')).body.message).toBe('All Open Positions SquaredOff');
    });

    it('takes expected_mode_version as a string too', async () => {
      const key = gw.newKey();
      await market(key, 'BUY', 4, 'A');
      const r = await hosted(key, 'close-str', { expected_mode_version: String(await modeVersion(key)) });
      expect(r.status, r.text).toBe(200);
      expect(r.body.message).toBe('All Open Positions SquaredOff');
      expect(await strategyQty(key, 'A')).toBe(0);
    });

    it('an incomplete hosted body is a 400', async () => {
      const key = gw.newKey();
      const r = await gw.api('closeposition', key, { strategy: 'A', expected_mode: 'analyze' });
      expect(r.status).toBe(400);
      expect(r.body.status).toBe('error');
    });
  });
});

describe('analyzer', () => {
  it('counts the account orders and reports the mode snapshot', async () => {
    const key = gw.newKey();
    await market(key, 'BUY', 1);
    const r = await gw.api('analyzer', key, {});
    expect(r.body).toEqual({
      status: 'success',
      data: {
        analyze_mode: true,
        mode: 'analyze',
        total_logs: 1,
        balance_type: 'sandbox',
        mode_version: gw.engine.mode().mode_version,
      },
    });
  });
});

// Runs last in this file: a reset clears every account of the shared gateway.
describe('mode switch after a reset', () => {
  it('a stale expected_mode_version gets SERVER_MODE_SWITCH_DETECTED with the current values', async () => {
    const key = gw.newKey();
    const stale = await modeVersion(key);
    gw.engine.reset();
    await market(key, 'BUY', 10, 'A');
    const r = await gw.api('closeposition', key, {
      strategy: 'A',
      expected_mode: 'analyze',
      expected_balance_type: 'sandbox',
      expected_mode_version: stale,
      request_id: 'after-reset',
    });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      status: 'error',
      message: 'Server mode switch detected',
      error_code: 'SERVER_MODE_SWITCH_DETECTED',
      mode: 'analyze',
      balance_type: 'sandbox',
      mode_version: stale + 1,
    });
    expect(await strategyQty(key, 'A')).toBe(10);
    expect(checkLedgerInvariants(gw.engine.ledger.db)).toEqual([]);
  });
});

describe('--reset between runs (the CLI path)', () => {
  it('restarts with empty books and a bumped mode version', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paper-composite-'));
    const apiKey = generateApiKey();
    try {
      const run1 = await startTestGateway({ dataDir, apiKey });
      const v1 = (
        (await run1.post('/api/v1/analyzer', { apikey: apiKey })).body.data as { mode_version: number }
      ).mode_version;
      await run1.post('/api/v1/placeorder', {
        apikey: apiKey,
        strategy: 'A',
        exchange: 'NSE',
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 1,
      });
      await run1.stop();

      resetPaperBooks(dataDir);

      const run2 = await startTestGateway({ dataDir, apiKey });
      try {
        const data = (await run2.post('/api/v1/analyzer', { apikey: apiKey })).body.data;
        expect(data).toMatchObject({ total_logs: 0, mode_version: v1 + 1 });
        const r = await run2.post('/api/v1/closeposition', {
          apikey: apiKey,
          strategy: 'A',
          expected_mode: 'analyze',
          expected_balance_type: 'sandbox',
          expected_mode_version: v1,
          request_id: 'r',
        });
        expect(r.status).toBe(409);
        expect(r.body).toMatchObject({ error_code: 'SERVER_MODE_SWITCH_DETECTED', mode_version: v1 + 1 });
      } finally {
        await run2.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

// Own gateway: the large orders drain the shared simulated book and move the clock.
describe('closeposition while a close is still filling', () => {
  const own = useEngineGateway();
  const call = (path: string, f: Fields) => own.api(path, own.apiKey, f);
  const book = async () => ((await call('orderbook', {})).body.data as { orders: OrderRow[] }).orders;

  it('a second close while the first is still filling does not over-close', async () => {
    const entry = ok(
      await call('placeorder', {
        strategy: 'A',
        exchange: 'NSE',
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 10_000,
      }),
    );
    expect(
      ((await call('orderstatus', { strategy: 'A', orderid: entry })).body.data as OrderRow).order_status,
    ).toBe('open'); // partly filled (Decision 6)
    const first = await call('closeposition', { strategy: 'A' });
    expect(first.body).toMatchObject({ message: 'All Open Positions SquaredOff', closed_positions: 1 });
    const [closing] = await book();
    expect(closing).toMatchObject({ action: 'SELL', quantity: 10_000, strategy: 'A' });
    const count = (await book()).length;
    const second = await call('closeposition', { strategy: 'A' });
    expect(second.body).toMatchObject({ message: 'All Open Positions SquaredOff', closed_positions: 0 });
    expect((await book()).length).toBe(count);

    // Let the book refill until both orders complete: the strategy ends flat, not short.
    for (let i = 0; i < 600 && (await book()).some((o) => o.order_status === 'open'); i++) {
      own.clock.advance(1000);
      own.engine.tick();
    }
    expect((await book()).map((o) => o.order_status)).toEqual(['complete', 'complete']);
    expect(
      (await call('positionsopen', { strategy: 'A', symbol: 'SBIN', exchange: 'NSE', product: 'MIS' })).body
        .quantity,
    ).toBe(0);
    const rows = (await call('positionbook', {})).body.data as { symbol: string; quantity: number }[];
    expect(rows.find((r) => r.symbol === 'SBIN')?.quantity).toBe(0);
  });
});
