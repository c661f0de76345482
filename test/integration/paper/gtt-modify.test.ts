// GTT orders over real HTTP against the embedded paper gateway (ManualClock), in the live server's
// recorded shapes (test/fixtures/openalgo/live-gtt): modifygttorder and cancelgttorder.
import { describe, expect, it } from 'vitest';
import { tickRound } from '../../support/paper-gateway.js';
import {
  accepted,
  book,
  expectInvariants,
  funds,
  future,
  ltp,
  movePrice,
  paise,
  RECORDED,
  single,
  sortedKeys,
  useGttGateway,
} from './gtt-fixture.js';

const { gw, oco } = useGttGateway();

describe('modifygttorder and cancelgttorder', () => {
  it('modifies a SINGLE (trigger and quantity), moving the reservation by the difference', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const t = tickRound(i, ltp(gw, i) * 0.95);
    const id = accepted(await gw.api('placegttorder', key, single(i, t)));
    const before = await funds(gw, key);
    const t2 = tickRound(i, t * 0.98);
    const r = await gw.api('modifygttorder', key, single(i, t2, { trigger_id: id, quantity: 2 }));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ status: 'success', trigger_id: id, mode: 'analyze' });
    const [row] = await book(gw, key);
    expect(row).toMatchObject({ trigger_prices: [t2], margin_blocked: Number((t2 * 2).toFixed(4)) });
    expect(row?.legs[0]).toMatchObject({ quantity: 2, price: t2 });
    const after = await funds(gw, key);
    expect(before.cash - after.cash).toBe(paise(t2 * 2) - paise(t));
    expectInvariants(gw);
  });

  it('answers a refused modify with a 4xx and its reason, never a 500', async () => {
    const key = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const t = tickRound(i, ltp(gw, i) * 0.95);
    const id = accepted(await gw.api('placegttorder', key, single(i, t)));
    const flip = await gw.api('modifygttorder', key, single(i, t, { trigger_id: id, action: 'SELL' }));
    expect(flip.status).toBe(400);
    expect(flip.body.message).toBe(
      'action cannot be changed on an existing GTT (BUY -> SELL). Cancel it and place a new one.',
    );
    const shape = await gw.api(
      'modifygttorder',
      key,
      oco(i, 1, t, t * 1.1, { trigger_id: id, action: 'BUY', product: 'CNC' }),
    );
    expect(shape.status).toBe(400);
    expect(String(shape.body.message)).toMatch(/trigger_type cannot be changed/);
    const unknown = await gw.api('modifygttorder', key, single(i, t, { trigger_id: 'GTT-261003-00000000' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      status: 'error',
      message: "No active GTT with trigger_id 'GTT-261003-00000000'",
      mode: 'analyze',
    });
    const poor = await gw.api('modifygttorder', key, single(i, t, { trigger_id: id, quantity: 15_000 }));
    expect(poor.status).toBe(400);
    expect(String(poor.body.message)).toMatch(/^Insufficient funds/);
    // A failed modify changes nothing.
    const [row] = await book(gw, key);
    expect(row).toMatchObject({
      trigger_prices: [t],
      margin_blocked: t,
      legs: [{ action: 'BUY', quantity: 1 }],
    });
    expectInvariants(gw);
  });

  it('cancels and releases everything reserved; a second cancel or modify is the recorded 404', async () => {
    const key = gw.newKey();
    const i = future(gw);
    const p = ltp(gw, i);
    const before = await funds(gw, key);
    const id = accepted(
      await gw.api('placegttorder', key, oco(i, i.lotsize, tickRound(i, p * 0.9), tickRound(i, p * 1.1))),
    );
    // Modified first (the recorded server could no longer cancel an OCO after this).
    const mod = await gw.api(
      'modifygttorder',
      key,
      oco(i, 2 * i.lotsize, tickRound(i, p * 0.9), tickRound(i, p * 1.2), { trigger_id: id }),
    );
    expect(mod.status, mod.text).toBe(200);
    expect((await funds(gw, key)).cash).toBeLessThan(before.cash);

    const r = await gw.api('cancelgttorder', key, { strategy: 'gtt-test', trigger_id: id });
    expect(r.status, r.text).toBe(200);
    expect(sortedKeys(r.body)).toEqual(sortedKeys(RECORDED['cancelgttorder/single']?.response ?? {}));
    expect(r.body).toEqual({ status: 'success', trigger_id: id, mode: 'analyze' });
    expect(await funds(gw, key)).toEqual(before);
    const [row] = await book(gw, key, 'all');
    expect(row).toMatchObject({ trigger_id: id, status: 'cancelled', margin_blocked: 0 });
    expect(await book(gw, key)).toEqual([]);

    const again = await gw.api('cancelgttorder', key, { strategy: 'gtt-test', trigger_id: id });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({
      status: 'error',
      message: `No active GTT with trigger_id '${id}'`,
      mode: 'analyze',
    });
    const modify = await gw.api(
      'modifygttorder',
      key,
      oco(i, i.lotsize, p * 0.9, p * 1.1, { trigger_id: id }),
    );
    expect(modify.status).toBe(404);
    // Cancelled, it never fires.
    movePrice(gw, i, p * 0.8);
    expect(((await gw.api('orderbook', key)).body.data as { orders: unknown[] }).orders).toEqual([]);
    expectInvariants(gw);
  });

  it('keeps GTTs per account: another key cannot see or cancel them', async () => {
    const owner = gw.newKey();
    const other = gw.newKey();
    const i = gw.instrument('NSE', 'SBIN');
    const id = accepted(await gw.api('placegttorder', owner, single(i, tickRound(i, ltp(gw, i) * 0.9))));
    expect(await book(gw, other, 'all')).toEqual([]);
    const r = await gw.api('cancelgttorder', other, { strategy: 'x', trigger_id: id });
    expect(r.status).toBe(404);
    expect((await book(gw, owner)).map((g) => g.trigger_id)).toEqual([id]);
  });
});
