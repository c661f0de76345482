// The router's order path over a whole core, with an in-memory fake gateway behind an injected fetch:
// validation before any request, risk refusals with reasons, the last price a MARKET order is
// checked at, the duplicate guard, previews.
import { afterEach, describe, expect, it } from 'vitest';
import { clock, core, gw, order, settle, state, useRouterCore } from './router-fixture.js';

useRouterCore();

describe('validation', () => {
  it.each([
    [{ ...order, quantity: 'ten' }, /quantity must be a number/],
    [{ ...order, action: 'HOLD' }, /action must be one of: BUY, SELL/],
    [{ ...order, symbol: undefined }, /symbol is required/],
    [{ ...order, exchange: 'NYSE' }, /exchange must be one of/],
    [{ ...order, apikey: 'abc' }, /unknown field\(s\): apikey/],
    [{ ...order, quantity: 1.5 }, /quantity must be a whole number/],
    ['not an object', /expected object/i],
  ])('refuses %j with a clear message and no request', async (input, message) => {
    const r = await core.router.invoke('orders.place', input);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('invalid_input');
    expect(r.error.message).toMatch(message);
    expect(r.error.message.startsWith('orders.place: ')).toBe(true);
    expect(gw.calls).toEqual([]);
  });

  it('refuses unknown channels and bad inputs on other channels', async () => {
    expect(await core.router.invoke('orders.explode', {})).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
    expect(await core.router.invoke('watcher.setVisibility', { visible: 'yes' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', message: expect.stringMatching(/visible must be true or false/) },
    });
    expect(await core.router.invoke('settings.update', { risk: { maxQuantityPerOrder: -1 } })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
    expect(gw.calls).toEqual([]);
  });
});

describe('risk checks', () => {
  it('refuses a breach with the reason, journals it, and sends nothing', async () => {
    const r = await core.router.invoke('orders.place', { ...order, quantity: 20_000 });
    expect(r).toMatchObject({
      ok: false,
      error: {
        kind: 'risk',
        message: expect.stringContaining('Quantity 20,000 exceeds your limit of 10,000 per order'),
      },
    });
    expect(gw.calls.map((c) => c.path)).not.toContain('placeorder');
    const journal = await core.router.invoke('journal.query', {});
    expect(journal.ok && journal.value[0]).toMatchObject({
      operation: 'placeorder',
      outcome: 'error',
      error: { kind: 'risk' },
    });
  });

  it('refuses a price outside the band and off the tick', async () => {
    const r = await core.router.invoke('orders.place', { ...order, price: 900.02 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toMatch(/not a multiple of the tick size ₹0.05/);
    expect(r.error.message).toMatch(/away from the last price ₹812.35; your limit is 5.00%/);
  });
});

describe('the last price a MARKET order is checked at', () => {
  const market = { exchange: 'NSE', symbol: 'SBIN', action: 'BUY', quantity: 10, pricetype: 'MARKET' };
  const paths = (from: number) => gw.calls.slice(from).map((c) => c.path);

  /** Warms the per-session instrument rules (one `symbol` read), then watches SBIN's quote at 812.35. */
  async function watched(): Promise<void> {
    expect((await core.router.invoke('orders.place', { ...market, quantity: 1 })).ok).toBe(true);
    const w = await core.router.invoke('market.watch', {
      mode: 'quote',
      symbols: [{ symbol: 'SBIN', exchange: 'NSE' }],
    });
    expect(w.ok).toBe(true);
    await settle(5);
    // A quote asked for now would price 10 shares at ₹1,00,00,000, far past the ₹10,00,000 limit.
    state.ltp = 1_000_000;
  }

  afterEach(() => {
    state.ltp = 812.35;
  });

  it('uses a watched price seen within 2 s: the placeorder is the only request', async () => {
    await watched();
    await clock.advance(1_500);
    const before = gw.calls.length;
    const r = await core.router.invoke('orders.place', market);
    expect(r).toMatchObject({ ok: true });
    expect(paths(before)).toEqual(['placeorder']);
  });

  it('asks the gateway when the watched price is older, and checks against what it answers', async () => {
    await watched();
    await clock.advance(2_500);
    const before = gw.calls.length;
    const r = await core.router.invoke('orders.place', market);
    expect(r).toMatchObject({
      ok: false,
      error: { kind: 'risk', message: expect.stringContaining('Order value ₹1,00,00,000.00 exceeds') },
    });
    expect(paths(before).filter((p) => p !== 'multiquotes')).toEqual(['quotes']);
  });
});

describe('duplicate guard', () => {
  it('holds the same order within 2 s until confirmed', async () => {
    expect((await core.router.invoke('orders.place', order)).ok).toBe(true);
    const again = await core.router.invoke('orders.place', order);
    expect(again).toMatchObject({
      ok: false,
      error: { kind: 'duplicate', message: expect.stringMatching(/confirm/) },
    });
    expect(gw.calls.filter((c) => c.path === 'placeorder')).toHaveLength(1);
    expect((await core.router.invoke('orders.place', { ...order, confirmDuplicate: true })).ok).toBe(true);
    await clock.advance(2001);
    expect((await core.router.invoke('orders.place', order)).ok).toBe(true);
    expect(gw.calls.filter((c) => c.path === 'placeorder')).toHaveLength(3);
  });

  it('fills in the profile strategy and journals before and after', async () => {
    const r = await core.router.invoke('orders.place', order);
    expect(r).toMatchObject({ ok: true, value: { orderid: '100' } });
    expect(gw.calls.find((c) => c.path === 'placeorder')?.body.strategy).toBe('OrderDesk');
    const journal = await core.router.invoke('journal.query', {});
    expect(journal.ok && journal.value[0]).toMatchObject({ outcome: 'ok', orderIds: ['100'] });
  });
});

describe('previews', () => {
  it('previews a smart order from the current position with the paper gateway rules', async () => {
    state.position = 30;
    const r = await core.router.invoke('orders.previewSmart', { ...order, quantity: 5, position_size: 10 });
    expect(r).toMatchObject({
      ok: true,
      value: {
        current: 30,
        target: 10,
        decision: { kind: 'order', order: { action: 'SELL', quantity: 20, symbol: 'SBIN' } },
      },
    });
    state.position = 10;
    expect(await core.router.invoke('orders.previewSmart', { ...order, position_size: 10 })).toMatchObject({
      ok: true,
      value: { decision: { kind: 'none', message: expect.stringMatching(/No Action needed/) } },
    });
  });

  it('previews the child orders of a split and refuses more than 100', async () => {
    const r = await core.router.invoke('orders.previewSplit', { ...order, quantity: 250, splitsize: 100 });
    expect(r.ok && r.value.children.map((c) => c.quantity)).toEqual([100, 100, 50]);
    expect(
      await core.router.invoke('orders.previewSplit', { ...order, quantity: 10_001, splitsize: 100 }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', message: expect.stringMatching(/exceed maximum limit of 100/) },
    });
    expect(gw.calls).toEqual([]);
  });
});
