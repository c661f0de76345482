// GTT orders over real HTTP against the embedded paper gateway (ManualClock), in the live server's
// recorded shapes (test/fixtures/openalgo/live-gtt): placegttorder and gttorderbook.
import { describe, expect, it } from 'vitest';
import { tickRound } from '../../support/paper-gateway.js';
import {
  accepted,
  book,
  expectInvariants,
  funds,
  future,
  ltp,
  paise,
  recordedLeg,
  recordedRow,
  single,
  sortedKeys,
  useGttGateway,
  type Fields,
} from './gtt-fixture.js';

const { gw, oco } = useGttGateway();

describe('placegttorder and gttorderbook', () => {
  it('places a SINGLE, reserves its value, and lists it in the recorded row shape', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const trigger = tickRound(i, ltp(gw, i) * 0.95);
    const before = await funds(gw, key);
    const id = accepted(await gw.api('placegttorder', key, single(i, trigger)));

    const [row] = await book(gw, key);
    expect(sortedKeys(row ?? {})).toEqual(sortedKeys(recordedRow));
    expect(sortedKeys(row?.legs[0] ?? {})).toEqual(sortedKeys(recordedLeg));
    expect(row).toMatchObject({
      trigger_id: id,
      trigger_type: 'single',
      status: 'active',
      trigger_prices: [trigger],
      margin_blocked: trigger,
      legs: [
        {
          action: 'BUY',
          price: trigger,
          pricetype: 'LIMIT',
          product: 'CNC',
          quantity: 1,
          triggered_order_id: null,
        },
      ],
    });
    // ISO IST without a zone, expiring a year on.
    expect(row?.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    expect(row?.created_at.slice(0, 19)).toBe(
      new Date(gw.clock.now() + 19_800_000).toISOString().slice(0, 19),
    );
    const year = Date.parse(`${row?.expires_at ?? ''}Z`) - Date.parse(`${row?.created_at ?? ''}Z`);
    expect(year).toBe(365 * 86_400_000);

    const after = await funds(gw, key);
    expect(before.cash - after.cash).toBe(paise(trigger));
    expect(after.used - before.used).toBe(paise(trigger));
    expectInvariants(gw);
  });

  it('places an OCO as a two-leg row holding the larger leg', async () => {
    const key = gw.newKey();
    const i = future(gw);
    const p = ltp(gw, i);
    const sl = tickRound(i, p * 0.95);
    const tg = tickRound(i, p * 1.05);
    const id = accepted(await gw.api('placegttorder', key, oco(i, i.lotsize, sl, tg)));
    const [row] = await book(gw, key);
    const target = tickRound(i, tg * 1.01);
    expect(row).toMatchObject({
      trigger_id: id,
      trigger_type: 'two-leg',
      trigger_prices: [sl, tg],
      legs: [
        { action: 'SELL', price: tickRound(i, sl * 0.99), triggered_order_id: null },
        { action: 'SELL', price: target, triggered_order_id: null },
      ],
    });
    // Futures at 10×: the target leg (the dearer one) over the leverage.
    expect(paise(row?.margin_blocked ?? 0)).toBe(Math.ceil(paise(target * i.lotsize) / 10));
    expectInvariants(gw);
  });

  it('refuses what the live server refuses, with the field named', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const t = tickRound(i, ltp(gw, i) * 0.9);
    const cases: [Fields, RegExp][] = [
      [single(i, t, { trigger_type: 'TRIPLE' }), /trigger_type must be 'SINGLE' or 'OCO'/],
      [single(i, t, { product: 'MIS' }), /GTT supports only CNC \(delivery\) or NRML/],
      [single(i, t, { trigger_type: 'OCO' }), /stoploss is required for OCO/],
      [single(i, t, { symbol: 'NOTASYMBOL' }), /Symbol NOTASYMBOL not found on NSE/],
      [single(i, t, { triggerprice_sl: 0 }), /needs a positive triggerprice_sl or triggerprice_tg/],
      [single(i, t + 0.01), /is not a multiple of tick size/],
      [single(i, t, { quantity: 0 }), /quantity must be a positive number/],
    ];
    for (const [fields, message] of cases) {
      const r = await gw.api('placegttorder', key, fields);
      expect(r.status, JSON.stringify(fields)).toBe(400);
      expect(r.body).toMatchObject({ status: 'error' });
      expect(String(r.body.message)).toMatch(message);
    }
    const badFilter = await gw.api('gttorderbook', key, { status: 'cancelled' });
    expect(badFilter.status).toBe(400);
    expect(String(badFilter.body.message)).toMatch(/status must be one of: active, all/);
    const noId = await gw.api('cancelgttorder', key, { strategy: 'gtt-test' });
    expect(noId.status).toBe(400);
    expect(String(noId.body.message)).toMatch(/trigger_id is required/);
    expect(await book(gw, key, 'all')).toEqual([]);
  });
});
