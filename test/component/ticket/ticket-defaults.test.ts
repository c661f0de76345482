// The order type and product per segment: the keys (NEST: F7 market, F9 next type, F10 next
// product; Kite: Alt+M, Alt+T, Alt+P) change them from the quantity field, the choice is saved for the
// segment (settings.ticketDefaults), and the next symbol of that segment loads with it; another
// segment keeps its own (NRML on F&O until changed), and a restart starts from what was saved.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { SymbolInfo } from '@contract';
import Ticket from '../../../src-renderer/src/panes/Ticket.svelte';
import { HOTKEYS } from '../../../src-renderer/src/state/context';
import { HotkeysState } from '../../../src-renderer/src/state/hotkeys.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { NIFTY_FUT, SBIN } from '../../support/component/instruments';

afterEach(() => document.body.replaceChildren());

const RELIANCE: SymbolInfo = { ...SBIN, symbol: 'RELIANCE', name: 'RELIANCE INDUSTRIES' };

async function mount(preset: 'nest' | 'kite' = 'nest', saved = {}) {
  const f = deskFixture({ instruments: [SBIN, RELIANCE, NIFTY_FUT] });
  f.settings.hotkeys = { preset, overrides: {} };
  f.settings.ticketDefaults = saved;
  const hotkeys = new HotkeysState();
  hotkeys.start(f.bridge);
  f.context.set(HOTKEYS, hotkeys);
  render(Ticket, { context: f.context });
  await f.ticket.open('BUY', { symbol: SBIN.symbol, exchange: SBIN.exchange }, { lastPrice: 905.3 });
  await settle();
  return f;
}

const qty = () => screen.getByLabelText('Qty') as HTMLInputElement;
const key = async (k: string, init: KeyboardEventInit = {}) => {
  await fireEvent.keyDown(qty(), { key: k, ...init });
  await settle();
};
const checked = (name: string) => (screen.getByRole('radio', { name }) as HTMLInputElement).checked;
const open = async (f: Awaited<ReturnType<typeof mount>>, i: SymbolInfo) => {
  await f.ticket.open('BUY', { symbol: i.symbol, exchange: i.exchange }, { lastPrice: 100 });
  await settle();
};

describe('order type and product keys', () => {
  it('NEST: F7 market and F10 product act from the quantity field and show at once', async () => {
    const f = await mount();
    expect([f.ticket.priceType, f.ticket.product]).toEqual(['LIMIT', 'CNC']);
    qty().focus();
    await key('F7');
    await key('F10');
    expect([f.ticket.priceType, f.ticket.product]).toEqual(['MARKET', 'MIS']);
    expect(checked('Market')).toBe(true);
    expect(checked('MIS')).toBe(true);
    expect(document.activeElement).toBe(qty());
    expect(screen.getByText('MARKET · MIS: new equity symbols start so')).toBeInTheDocument();
    // F9 steps through the types in order; F10 toggles the segment's two products.
    await key('F9');
    expect(f.ticket.priceType).toBe('LIMIT');
    await key('F9');
    await key('F9');
    expect(f.ticket.priceType).toBe('SL-M');
    await key('F9');
    expect(f.ticket.priceType).toBe('MARKET');
    await key('F10');
    expect(f.ticket.product).toBe('CNC');
  });

  it('Kite: Alt+M, Alt+T and Alt+P do the same; the F-keys do not', async () => {
    const f = await mount('kite');
    await key('F10');
    expect(f.ticket.product).toBe('CNC');
    await key('m', { altKey: true, code: 'KeyM' });
    await key('p', { altKey: true, code: 'KeyP' });
    expect([f.ticket.priceType, f.ticket.product]).toEqual(['MARKET', 'MIS']);
    await key('t', { altKey: true, code: 'KeyT' });
    expect(f.ticket.priceType).toBe('LIMIT');
  });
});

describe('defaults per segment', () => {
  it('a choice is kept for the next symbol of its segment, not for another segment', async () => {
    const f = await mount();
    await key('F7');
    await key('F10');
    expect(f.bridge.callsTo('settings.update').at(-1)?.input).toEqual({
      ticketDefaults: { equity: { priceType: 'MARKET', product: 'MIS' } },
    });
    await open(f, RELIANCE);
    expect([f.ticket.priceType, f.ticket.product]).toEqual(['MARKET', 'MIS']);
    // F&O has nothing saved: LIMIT and NRML, until changed there.
    await open(f, NIFTY_FUT);
    expect([f.ticket.priceType, f.ticket.product]).toEqual(['LIMIT', 'NRML']);
    await key('F10');
    expect(f.ticket.product).toBe('MIS');
    await open(f, SBIN);
    expect([f.ticket.priceType, f.ticket.product]).toEqual(['MARKET', 'MIS']);
    await open(f, NIFTY_FUT);
    expect([f.ticket.priceType, f.ticket.product]).toEqual(['LIMIT', 'MIS']);
  });

  it('a click on the order type is kept too; loading a symbol saves nothing by itself', async () => {
    const f = await mount();
    await open(f, RELIANCE);
    expect(f.bridge.callsTo('settings.update')).toHaveLength(0);
    await fireEvent.click(screen.getByRole('radio', { name: 'Stop-loss limit' }));
    await settle();
    expect(f.settings.ticketDefaults).toEqual({ equity: { priceType: 'SL', product: 'CNC' } });
  });

  it('after a restart the saved defaults apply; a product the segment refuses falls back to its own', async () => {
    const f = await mount('nest', {
      equity: { priceType: 'MARKET', product: 'NRML' },
      fno: { priceType: 'SL-M', product: 'MIS' },
    });
    expect([f.ticket.priceType, f.ticket.product]).toEqual(['MARKET', 'CNC']);
    await open(f, NIFTY_FUT);
    expect([f.ticket.priceType, f.ticket.product]).toEqual(['SL-M', 'MIS']);
  });
});
