// Composite order operations end to end, cancelallorder, closeposition and positionsopen: real
// HTTP, the real engine over SQLite, ManualClock prices. Positions are set up with real orders
// first, then the composite call, then the books are checked.
import { describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../../src-main/paper/engine/ledger-invariants.js';
import { useEngineGateway, tickRound } from '../../support/paper-gateway.js';
import { ok, useCompositeGateway, type Fields, type OrderRow } from './composite-fixture.js';

const { gw, market, orderStatus, orders, net, strategyQty, modeVersion } = useCompositeGateway();

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
