// One-click mode: off by default; armed, a buy/sell key sends one MARKET order at once with the
// ticket's instrument, quantity and product; a held key's repeats send nothing; a cooldown separates
// orders (a refused press says why); per-order lot and value caps; the switch is remembered in
// settings and read back after a reload; the at-the-money keys find the strike nearest the spot;
// cancel all / close all still reach the desk from a text field.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { PlaceOrderIpcInput } from '@contract';
import OneClick from '../../../src-renderer/src/components/OneClick.svelte';
import { DEFAULT_KEYMAP, resolveHotkey, type Keymap } from '../../../src-renderer/src/lib/hotkeys';
import { checkCaps, oneClickKey } from '../../../src-renderer/src/lib/one-click';
import { PRESET_KEYMAPS } from '../../../src-renderer/src/lib/keymap-presets';
import { AtmOptionFinder, atmUnderlyingOf } from '../../../src-renderer/src/state/atm-option';
import { ONE_CLICK } from '../../../src-renderer/src/state/context';
import { OneClickState } from '../../../src-renderer/src/state/one-click.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { NIFTY_INDEX, SBIN } from '../../support/component/instruments';

const quote = (ltp: number) => ({
  ok: true as const,
  value: {
    status: 'success' as const,
    data: { ltp, bid: ltp, ask: ltp, open: ltp, high: ltp, low: ltp, prev_close: ltp, volume: 0 },
  },
});

async function setup(
  opts: { armed?: boolean; maxLots?: number; maxValue?: number; cooldownMs?: number } = {},
) {
  const f = deskFixture({ instruments: [SBIN, NIFTY_INDEX] });
  f.settings.oneClick = {
    armed: opts.armed ?? false,
    maxLots: opts.maxLots ?? 10,
    maxValue: opts.maxValue ?? 200_000,
    cooldownMs: opts.cooldownMs ?? 1000,
  };
  // The fixture's settings.update assigns the patch whole; one-click patches merge, as the core does.
  f.bridge.answer('settings.update', (patch) => {
    const p = patch as { oneClick?: Partial<typeof f.settings.oneClick> };
    if (p.oneClick) f.settings.oneClick = { ...f.settings.oneClick, ...p.oneClick };
    return { ok: true, value: structuredClone(f.settings) };
  });
  let orderNo = 0;
  f.bridge.answer('orders.place', () => ({
    ok: true,
    value: { status: 'success', orderid: `OC${++orderNo}` },
  }));
  f.bridge.answer('market.quotes', () => quote(800));
  let now = 10_000;
  const oneClick = new OneClickState(f.bridge, { now: () => now });
  f.context.set(ONE_CLICK, oneClick);
  render(OneClick, { context: f.context });
  await f.ticket.open('BUY', { symbol: 'SBIN', exchange: 'NSE' }, { lastPrice: 800 });
  f.ticket.quantityText = '5';
  await settle();
  return {
    ...f,
    oneClick,
    advance: (ms: number) => (now += ms),
    orders: () => f.bridge.callsTo('orders.place').map((c) => c.input as PlaceOrderIpcInput),
  };
}

const press = (key: string, extra: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.body, { key, ...extra });

describe('one-click mode', () => {
  it('is off by default: F1 sends nothing', async () => {
    const t = await setup();
    expect(t.oneClick.armed).toBe(false);
    expect(screen.getByRole('switch', { name: 'One-click' })).not.toBeChecked();
    await press('F1');
    await settle();
    expect(t.orders()).toEqual([]);
  });

  it('armed by its switch, F1 sends one MARKET order with the ticket instrument, quantity and product', async () => {
    const t = await setup();
    await fireEvent.click(screen.getByRole('switch', { name: 'One-click' }));
    await settle();
    expect(t.bridge.callsTo('settings.update').at(-1)?.input).toEqual({ oneClick: { armed: true } });
    expect(screen.getByTestId('one-click-armed').textContent).toContain('ARMED');
    await press('F1');
    await settle();
    expect(t.orders()).toEqual([
      {
        symbol: 'SBIN',
        exchange: 'NSE',
        action: 'BUY',
        quantity: 5,
        pricetype: 'MARKET',
        product: 'CNC',
        price: 0,
        trigger_price: 0,
        disclosed_quantity: 0,
      },
    ]);
    expect(screen.getByTestId('one-click-notice').textContent).toContain(
      'Sent BUY 5 SBIN at market · order OC1',
    );
    // Disarming stops it.
    await fireEvent.click(screen.getByRole('switch', { name: 'One-click' }));
    await settle();
    t.advance(5000);
    await press('F2');
    await settle();
    expect(t.orders()).toHaveLength(1);
  });

  it("a held key's repeats send nothing, with no cooldown to hide them; a new press sends", async () => {
    const t = await setup({ armed: true, cooldownMs: 0 });
    await press('F2');
    await settle();
    await press('F2', { repeat: true });
    await settle();
    await press('F2', { repeat: true });
    await settle();
    expect(t.orders()).toHaveLength(1);
    expect(t.orders()[0]?.action).toBe('SELL');
    expect(screen.getByTestId('one-click-notice').textContent).toBe('Held key ignored: one press, one order');
    await press('F2');
    await settle();
    expect(t.orders()).toHaveLength(2);
  });

  it('a press within the cooldown is refused, saying how long is left', async () => {
    const t = await setup({ armed: true, cooldownMs: 1000 });
    await press('F1');
    await settle();
    t.advance(400);
    await press('F1');
    await settle();
    expect(t.orders()).toHaveLength(1);
    expect(screen.getByTestId('one-click-notice').textContent).toBe(
      'Cooldown: not sent, next order in 0.6 s',
    );
  });

  it('per-order caps: too many lots or too much value is refused with the figures', async () => {
    const t = await setup({ armed: true, maxLots: 4 });
    await press('F1');
    await settle();
    expect(t.orders()).toEqual([]);
    expect(screen.getByTestId('one-click-notice').textContent).toBe(
      'Not sent: 5 lots is over the one-click cap of 4 lots',
    );
    await t.oneClick.setCaps({ maxLots: 10, maxValue: 3000 });
    await press('F1');
    await settle();
    expect(t.orders()).toEqual([]);
    expect(screen.getByTestId('one-click-notice').textContent).toBe(
      'Not sent: Value ₹4,000.00 is over the one-click cap of ₹3,000.00',
    );
  });

  it('the caps are edited in place: saved to settings, shown on the button; a refusal says why', async () => {
    const t = await setup();
    const caps = screen.getByRole('button', { name: /One-click caps/ });
    expect(caps.textContent).toBe('One-click caps: 10 lots · ₹2,00,000 · 1.0 s');
    await fireEvent.click(caps);
    await fireEvent.input(screen.getByLabelText('Max lots'), { target: { value: '2' } });
    await fireEvent.input(screen.getByLabelText('Max value ₹'), { target: { value: '50,000' } });
    await fireEvent.input(screen.getByLabelText('Cooldown ms'), { target: { value: '750' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(t.bridge.callsTo('settings.update').at(-1)?.input).toEqual({
      oneClick: { maxLots: 2, maxValue: 50_000, cooldownMs: 750 },
    });
    expect(screen.getByRole('button', { name: /One-click caps/ }).textContent).toBe(
      'One-click caps: 2 lots · ₹50,000 · 0.8 s',
    );
    t.bridge.answer('settings.update', () => ({
      ok: false,
      error: {
        kind: 'invalid_input',
        message: 'invalid settings: oneClick.maxLots: Max lots must be at least 1',
      },
    }));
    await fireEvent.click(screen.getByRole('button', { name: /One-click caps/ }));
    await fireEvent.input(screen.getByLabelText('Max lots'), { target: { value: '0' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(screen.getByTestId('one-click-notice').textContent).toContain('Max lots must be at least 1');
    expect(t.oneClick.settings.maxLots).toBe(2);
  });

  it('is remembered: a fresh page over the same settings starts armed', async () => {
    const t = await setup();
    await t.oneClick.setArmed(true);
    expect(t.settings.oneClick.armed).toBe(true);
    const reloaded = new OneClickState(t.bridge);
    expect(reloaded.armed).toBe(false);
    const stop = reloaded.start();
    await settle();
    expect(reloaded.armed).toBe(true);
    stop();
  });

  it('refuses without an instrument, and never sends a quote-only index', async () => {
    const t = await setup({ armed: true });
    await t.ticket.open('BUY', { symbol: 'NIFTY', exchange: 'NSE_INDEX' }, { lastPrice: 24000 });
    await settle();
    await press('F1');
    await settle();
    expect(t.orders()).toEqual([]);
    expect(screen.getByTestId('one-click-notice').textContent).toContain('quoted only');
  });
});

describe('one-click keys', () => {
  const ctx = { typingInInput: false, rowFocused: false, ticketFocused: false, navigating: false };
  const typing = { ...ctx, typingInInput: true, navigating: true };
  const scalping: Keymap = PRESET_KEYMAPS.scalping;

  it('the scalping arrows are sends only while armed; disarmed they are refused, not passed on', () => {
    expect(oneClickKey({ key: 'ArrowUp' }, ctx, scalping, true)).toMatchObject({
      kind: 'send',
      side: 'BUY',
      target: { kind: 'atm', optionType: 'CE' },
      repeat: false,
    });
    expect(oneClickKey({ key: 'ArrowDown', shiftKey: true }, ctx, scalping, true)).toMatchObject({
      kind: 'send',
      side: 'SELL',
      target: { kind: 'atm', optionType: 'PE' },
    });
    expect(oneClickKey({ key: 'ArrowUp' }, ctx, scalping, false)).toEqual({
      kind: 'disarmed',
      action: 'atm.buyCall',
    });
    // In a text field the arrows step the field, armed or not.
    expect(oneClickKey({ key: 'ArrowUp' }, typing, scalping, true)).toEqual({ kind: 'none' });
    expect(oneClickKey({ key: 'F1', repeat: true }, ctx, DEFAULT_KEYMAP, true)).toMatchObject({
      kind: 'send',
      repeat: true,
    });
  });

  it('F1 sends from inside the ticket too (the field does not hold it back) and only while armed', () => {
    const inTicket = { ...typing, ticketFocused: true };
    expect(oneClickKey({ key: 'F1' }, inTicket, DEFAULT_KEYMAP, true)).toMatchObject({
      kind: 'send',
      side: 'BUY',
      target: { kind: 'ticket' },
    });
    expect(oneClickKey({ key: 'F1' }, inTicket, DEFAULT_KEYMAP, false)).toEqual({ kind: 'none' });
  });

  it('cancel all (F7) and close all (F6) act from a text field, through the desk, never twice', () => {
    // The desk's listener resolves them where focus is a field; one-click leaves them to it.
    expect(resolveHotkey({ key: 'F7' }, typing, scalping)).toBe('orders.cancelAll');
    expect(resolveHotkey({ key: 'F6' }, typing, scalping)).toBe('positions.closeAll');
    expect(oneClickKey({ key: 'F7' }, typing, scalping, true)).toEqual({ kind: 'none' });
    expect(oneClickKey({ key: 'F6' }, typing, scalping, true)).toEqual({ kind: 'none' });
  });

  it('caps in decimals: 3 × ₹0.05 is ₹0.15, not 0.15000000000000002', () => {
    const c = checkCaps({ quantity: 3, lotSize: 1, price: 0.05 }, { maxLots: 5, maxValue: 0.15 });
    expect(c.ok).toBe(true);
    expect(
      checkCaps({ quantity: 130, lotSize: 65, price: 100 }, { maxLots: 1, maxValue: 1e6 }),
    ).toMatchObject({
      ok: false,
      reason: 'lots',
    });
    expect(checkCaps({ quantity: 10, lotSize: 1 }, { maxLots: 50, maxValue: 1e6 })).toMatchObject({
      ok: false,
      reason: 'no_price',
    });
  });
});

describe('the at-the-money option', () => {
  it("comes from the ticket's underlying: an index, a stock, a future or option of it", () => {
    expect(atmUnderlyingOf({ symbol: 'SBIN', exchange: 'NSE' })).toMatchObject({
      underlying: 'SBIN',
      exchange: 'NFO',
    });
    expect(atmUnderlyingOf({ symbol: 'NIFTY25NOV26FUT', exchange: 'NFO' })).toMatchObject({
      underlying: 'NIFTY',
      exchange: 'NFO',
    });
    expect(atmUnderlyingOf({ symbol: 'SENSEX', exchange: 'BSE_INDEX' })).toMatchObject({
      underlying: 'SENSEX',
      exchange: 'BFO',
      spot: ['BSE_INDEX', 'BSE'],
    });
    expect(atmUnderlyingOf({ symbol: 'USDINR26NOV26FUT', exchange: 'CDS' })).toBeUndefined();
  });

  it('is the strike nearest the spot, of the nearest expiry, with its lot size', async () => {
    const f = deskFixture();
    const contract = (strike: number, type: 'CE' | 'PE') => ({
      symbol: `NIFTY25NOV26${strike}${type}`,
      brsymbol: '',
      name: 'NIFTY',
      exchange: 'NFO',
      brexchange: 'NFO',
      token: '1',
      expiry: '25-NOV-26',
      strike,
      lotsize: 65,
      instrumenttype: type,
      tick_size: 0.05,
    });
    f.bridge
      .answer('market.quotes', (q) => quote(q?.symbol === 'NIFTY' ? 24_010 : 112.5))
      .answer('market.expiry', () => ({
        ok: true,
        value: { status: 'success', message: '', data: ['25-NOV-26', '02-DEC-26'] },
      }))
      .answer('market.search', () => ({
        ok: true,
        value: {
          status: 'success',
          message: '',
          data: [
            contract(23950, 'CE'),
            contract(24000, 'CE'),
            contract(24000, 'PE'),
            contract(24050, 'PE'),
            // Another underlying whose name contains NIFTY: never chosen.
            { ...contract(24000, 'PE'), symbol: 'BANKNIFTY25NOV2624000PE' },
          ],
        },
      }));
    const u = atmUnderlyingOf(NIFTY_INDEX);
    expect(u).toEqual({ underlying: 'NIFTY', exchange: 'NFO', spot: ['NSE_INDEX', 'NSE'] });
    const finder = new AtmOptionFinder(f.bridge);
    const r = await finder.find(u!, 'PE');
    expect(r).toEqual({
      ok: true,
      option: {
        symbol: 'NIFTY25NOV2624000PE',
        exchange: 'NFO',
        strike: 24000,
        optionType: 'PE',
        lotSize: 65,
        ltp: 112.5,
        spot: 24_010,
        expiry: '25-NOV-26',
      },
    });
    expect(f.bridge.callsTo('market.search')[0]?.input).toEqual({ query: 'NIFTY25NOV26', exchange: 'NFO' });
    // The chain is kept: a second press asks only for the spot and the option's quote.
    await finder.find(u!, 'CE');
    expect(f.bridge.callsTo('market.search')).toHaveLength(1);
    expect(f.bridge.callsTo('market.expiry')).toHaveLength(1);
  });
});
