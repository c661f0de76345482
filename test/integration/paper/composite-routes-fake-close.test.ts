// The composite routes over HTTP against an in-memory fake engine: response shapes, statuses and
// the order of engine calls, for cancelallorder, closeposition, positionsopen, the analyzer and an
// unknown key. The same scenarios run against the real engine in composite-*.test.ts.
import { describe, expect, it } from 'vitest';
import { compositeRoutes } from '../../../src-main/paper/http/routes/composite.js';
import { fakeServer } from '../../support/composite-fake-engine.js';
import { engine, fill, net, post, rest, useFakeEngineServer } from './composite-routes-fake-fixture.js';

useFakeEngineServer();

describe('cancelallorder', () => {
  it('cancels every open and trigger-pending order of the account, whatever the strategy', async () => {
    const working = [rest('LIMIT', 'A1'), rest('SL', 'A1'), rest('LIMIT', 'B1'), rest('SL', 'B1')];
    fill('BUY', 5, 'A1'); // complete: not cancellable, not counted
    const res = await post('cancelallorder', { apikey: 'key-a', strategy: 'A1' });
    expect(res.status).toBe(200);
    expect(res.body['message']).toBe('Canceled 4 orders. Failed to cancel 0 orders.');
    expect([...(res.body['canceled_orders'] as string[])].sort()).toEqual([...working].sort());
    expect(res.body['failed_cancellations']).toEqual([]);
    for (const id of working) expect(engine.order('A', id)?.status).toBe('cancelled');
  });

  it('reports failures with their message', async () => {
    const id = rest('LIMIT', 'Stuck');
    const res = await post('cancelallorder', { apikey: 'key-a', strategy: 'Stuck' });
    expect(res.body).toEqual({
      status: 'success',
      canceled_orders: [],
      failed_cancellations: [{ orderid: id, message: 'Order in transit' }],
      message: 'Canceled 0 orders. Failed to cancel 1 orders.',
      mode: 'analyze',
    });
  });

  it('says so when nothing is open', async () => {
    const res = await post('cancelallorder', { apikey: 'key-a', strategy: 'A1' });
    expect(res.body).toEqual({
      status: 'success',
      canceled_orders: [],
      failed_cancellations: [],
      message: 'No open orders to cancel',
      mode: 'analyze',
    });
  });
});

describe('closeposition and positionsopen', () => {
  const open = (strategy: string, apikey = 'key-a') =>
    post('positionsopen', { apikey, strategy, symbol: 'SBIN', exchange: 'NSE', product: 'MIS' });

  it('closes only the submitted strategy on a shared symbol', async () => {
    fill('BUY', 10, 'StratA');
    fill('SELL', 4, 'StratB');
    fill('SELL', 3, 'StratA', 'INFY');
    const res = await post('closeposition', { apikey: 'key-a', strategy: 'StratA' });
    expect(res).toEqual({
      status: 200,
      body: {
        status: 'success',
        message: 'All Open Positions SquaredOff',
        closed_positions: 2,
        failed_closures: 0,
        mode: 'analyze',
      },
    });
    expect((await open('StratA')).body).toEqual({ status: 'success', quantity: 0 });
    expect((await open('StratB')).body).toEqual({ status: 'success', quantity: -4 });
    expect(net()).toBe(-4);
    const closing = engine.orders('A').slice(0, 2);
    expect(closing.every((o) => o.strategy === 'StratA' && o.pricetype === 'MARKET')).toBe(true);
  });

  it('answers NO_STRATEGY_EXPOSURE when the strategy holds nothing', async () => {
    fill('BUY', 10, 'StratB');
    const res = await post('closeposition', { apikey: 'key-a', strategy: 'StratA' });
    expect(res).toEqual({
      status: 200,
      body: {
        status: 'success',
        message: 'No open positions to close',
        code: 'NO_STRATEGY_EXPOSURE',
        closed_positions: 0,
        failed_closures: 0,
        mode: 'analyze',
      },
    });
  });

  it('reports a refused counter-order without stopping the others', async () => {
    fill('BUY', 10, 'StratA');
    // Exposure on a symbol the fake refuses: put a fill there directly.
    engine.seedFill('A', 'StratA', 'BAD', 2);
    const res = await post('closeposition', { apikey: 'key-a', strategy: 'StratA' });
    expect(res.body).toEqual({
      status: 'success',
      message: 'Closed 1 positions (Failed to close 1 positions)',
      closed_positions: 1,
      failed_closures: 1,
      failures: [{ symbol: 'BAD', exchange: 'NSE', product: 'MIS', message: 'Symbol BAD not found on NSE' }],
      mode: 'analyze',
    });
  });

  it('counts working MARKET orders so a second close does not over-close', async () => {
    fill('BUY', 20_000, 'StratA'); // fills 10000, 10000 still filling
    expect((await open('StratA')).body['quantity']).toBe(10_000);
    const first = await post('closeposition', { apikey: 'key-a', strategy: 'StratA' });
    expect(first.body).toMatchObject({ message: 'All Open Positions SquaredOff', closed_positions: 1 });
    // Eventual exposure was 20000: one SELL 20000, of which half filled.
    expect(engine.orders('A')[0]).toMatchObject({
      action: 'SELL',
      quantity: 20_000,
      filled_quantity: 10_000,
    });
    const calls = engine.placeCalls;
    const second = await post('closeposition', { apikey: 'key-a', strategy: 'StratA' });
    expect(second.body).toMatchObject({ message: 'All Open Positions SquaredOff', closed_positions: 0 });
    expect(second.body['code']).toBeUndefined();
    expect(engine.placeCalls).toBe(calls);
  });

  it('positionsopen ignores hosted fields and is per account', async () => {
    fill('BUY', 7, 'StratA');
    const res = await post('positionsopen', {
      apikey: 'key-a',
      strategy: 'StratA',
      symbol: 'SBIN',
      exchange: 'NSE',
      product: 'MIS',
      expected_mode: 'live',
      expected_balance_type: 'live',
      expected_mode_version: 99,
      request_id: 'x',
    });
    expect(res.body).toEqual({ status: 'success', quantity: 7 });
    expect((await open('StratA', 'key-b')).body).toEqual({ status: 'success', quantity: 0 });
  });

  describe('hosted variant', () => {
    const hosted = (request_id: string, extra: Record<string, unknown> = {}) =>
      post('closeposition', {
        apikey: 'key-a',
        strategy: 'StratA',
        expected_mode: 'analyze',
        expected_balance_type: 'sandbox',
        expected_mode_version: engine.mode().mode_version,
        request_id,
        ...extra,
      });

    it('closes and answers with the mode snapshot', async () => {
      fill('BUY', 10, 'StratA');
      const res = await hosted('r1');
      expect(res).toEqual({
        status: 200,
        body: {
          status: 'success',
          message: 'All Open Positions SquaredOff',
          closed_positions: 1,
          failed_closures: 0,
          mode: 'analyze',
          balance_type: 'sandbox',
          mode_version: 1,
        },
      });
    });

    it('replays the first answer for a repeated request_id without acting again', async () => {
      fill('BUY', 10, 'StratA');
      const first = await hosted('r1');
      const calls = engine.placeCalls;
      fill('BUY', 5, 'StratA'); // new exposure after the first close
      const again = await hosted('r1');
      expect(again).toEqual(first);
      expect(engine.placeCalls).toBe(calls + 1); // only the setup fill
      expect((await open('StratA')).body['quantity']).toBe(5);
    });

    it('replays NO_STRATEGY_EXPOSURE too', async () => {
      const first = await hosted('r2');
      expect(first.body['code']).toBe('NO_STRATEGY_EXPOSURE');
      fill('BUY', 5, 'StratA');
      expect(await hosted('r2')).toEqual(first);
      expect((await open('StratA')).body['quantity']).toBe(5);
    });

    it('detects a mode switch after a reset (409, current values) and does not act', async () => {
      const stale = engine.mode().mode_version;
      engine.reset();
      fill('BUY', 10, 'StratA');
      const res = await hosted('r3', { expected_mode_version: stale });
      expect(res).toEqual({
        status: 409,
        body: {
          status: 'error',
          message: 'Server mode switch detected',
          error_code: 'SERVER_MODE_SWITCH_DETECTED',
          mode: 'analyze',
          balance_type: 'sandbox',
          mode_version: stale + 1,
        },
      });
      expect((await open('StratA')).body['quantity']).toBe(10);
      // The refusal is not remembered: the same id with a fresh snapshot acts.
      expect((await hosted('r3')).body['message']).toBe('All Open Positions SquaredOff');
    });

    it('a wrong mode or balance type is a switch too', async () => {
      expect((await hosted('r4', { expected_mode: 'live' })).status).toBe(409);
      expect((await hosted('r5', { expected_balance_type: 'live' })).status).toBe(409);
    });

    it('any hosted field makes all of them required', async () => {
      const res = await post('closeposition', { apikey: 'key-a', strategy: 'StratA', request_id: 'r6' });
      expect(res.status).toBe(400);
      expect(res.body['message']).toMatch(/expected_mode/);
    });
  });
});

describe('analyzer', () => {
  it('reports analyze mode, the order count and the mode version from engine.mode()', async () => {
    fill('BUY', 1);
    rest('LIMIT', 'X');
    const res = await post('analyzer', { apikey: 'key-a' });
    expect(res.body).toEqual({
      status: 'success',
      data: { analyze_mode: true, mode: 'analyze', total_logs: 2, balance_type: 'sandbox', mode_version: 1 },
    });
    engine.reset();
    const after = await post('analyzer', { apikey: 'key-a' });
    expect(after.body['data']).toMatchObject({ total_logs: 0, mode_version: 2 });
  });

  it('can be left to another module', async () => {
    const other = await fakeServer(compositeRoutes(engine, { analyzer: false }));
    const res = await other.inject({ method: 'POST', url: '/api/v1/analyzer', payload: { apikey: 'key-a' } });
    expect(res.statusCode).toBe(404);
    await other.close();
  });
});

it('rejects an unknown key with 403', async () => {
  const res = await post('cancelallorder', { apikey: 'nope', strategy: 'A1' });
  expect(res).toEqual({ status: 403, body: { status: 'error', message: 'Invalid openalgo apikey' } });
});
