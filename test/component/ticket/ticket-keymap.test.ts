// ONE key map for the whole window: the ticket's keys (F1/F2, `/`, Enter, Esc) come from the desk's
// HotkeysState, so a remap saved in settings moves them, in the ticket and from anywhere in the window.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@contract';
import Ticket from '../../../src-renderer/src/panes/Ticket.svelte';
import { HOTKEYS } from '../../../src-renderer/src/state/context';
import { HotkeysState } from '../../../src-renderer/src/state/hotkeys.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { NIFTY_FUT, SBIN } from '../../support/component/instruments';
import { placed } from '../../support/component/ticket-mount';

afterEach(() => document.body.replaceChildren());

/** The ticket under a desk whose key settings are `overrides` over the NEST preset, as App wires it. */
async function mount(overrides: Record<string, string[]>) {
  const f = deskFixture({ instruments: [SBIN, NIFTY_FUT] });
  f.settings.hotkeys = { preset: 'nest', overrides };
  const hotkeys = new HotkeysState();
  const stop = hotkeys.start(f.bridge);
  f.context.set(HOTKEYS, hotkeys);
  // Outside the ticket: a plain button elsewhere in the window, where the desk-wide keys act.
  const outside = document.body.appendChild(document.createElement('button'));
  outside.textContent = 'elsewhere';
  const view = render(Ticket, { context: f.context });
  await f.ticket.open('SELL', { symbol: SBIN.symbol, exchange: SBIN.exchange }, { lastPrice: 905.3 });
  await settle();
  return { ...f, hotkeys, stop, view, outside };
}

const qty = () => screen.getByLabelText('Qty') as HTMLInputElement;
const side = () =>
  (screen.getByRole('radio', { name: /BUY/ }) as HTMLInputElement).checked ? 'BUY' : 'SELL';

describe('the ticket follows the window key map', () => {
  it('F1 remapped to Shift+F9: the new chord buys, F1 no longer does, in the ticket and from outside', async () => {
    const { ticket, outside, hotkeys } = await mount({ 'ticket.buy': ['Shift+F9'] });
    expect(hotkeys.keymap['ticket.buy']).toEqual(['Shift+F9']);
    expect(ticket.side).toBe('SELL');
    // In the quantity field: the old key does nothing to the side, the new one turns the ticket to BUY.
    await fireEvent.keyDown(qty(), { key: 'F1' });
    expect(ticket.side).toBe('SELL');
    await fireEvent.keyDown(qty(), { key: 'F9', shiftKey: true });
    expect(ticket.side).toBe('BUY');
    expect(side()).toBe('BUY');
    // From elsewhere in the window (focus outside the ticket): same, and focus lands on the quantity.
    ticket.side = 'SELL';
    outside.focus();
    await fireEvent.keyDown(outside, { key: 'F1' });
    expect(ticket.side).toBe('SELL');
    expect(document.activeElement).toBe(outside);
    await fireEvent.keyDown(outside, { key: 'F9', shiftKey: true });
    expect(ticket.side).toBe('BUY');
    expect(document.activeElement).toBe(qty());
    // The side button shows the key in use.
    expect(screen.getByRole('radio', { name: /BUY/ }).parentElement?.textContent).toContain('Shift+F9');
  });

  it('search and send move with the map: Ctrl+K searches and Ctrl+Enter sends, `/` and Enter no longer do', async () => {
    const { bridge, outside } = await mount({ 'search.open': ['Ctrl+K'], 'ticket.send': ['Ctrl+Enter'] });
    bridge.answer('orders.place', () => placed('41'));
    outside.focus();
    await fireEvent.keyDown(outside, { key: '/' });
    expect(document.activeElement).toBe(outside);
    await fireEvent.keyDown(outside, { key: 'k', code: 'KeyK', ctrlKey: true });
    expect(document.activeElement).toBe(screen.getByLabelText('Instrument search'));
    // And from the ticket's own quantity field, where `/` is typed as text.
    qty().focus();
    await fireEvent.keyDown(qty(), { key: '/' });
    expect(document.activeElement).toBe(qty());
    await fireEvent.keyDown(qty(), { key: 'k', code: 'KeyK', ctrlKey: true });
    expect(document.activeElement).toBe(screen.getByLabelText('Instrument search'));

    // The send button shows the key that sends now.
    expect(screen.getByRole('button', { name: /^Sell 1 SBIN/ }).querySelector('kbd')?.textContent).toBe(
      'Ctrl+Enter',
    );
    qty().focus();
    await fireEvent.keyDown(qty(), { key: 'Enter' });
    await settle();
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
    await fireEvent.keyDown(qty(), { key: 'Enter', ctrlKey: true });
    await settle();
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    expect(screen.getByText(/Placed · order 41/)).toBeInTheDocument();
  });

  it('a remap saved while the desk runs (settings.changed) moves the keys at once', async () => {
    const { bridge, ticket } = await mount({});
    expect(screen.queryByTestId('keys-notice')).toBeNull();
    await fireEvent.keyDown(qty(), { key: 'F1' });
    expect(ticket.side).toBe('BUY');
    const settings = structuredClone(DEFAULT_SETTINGS);
    settings.hotkeys = { preset: 'nest', overrides: { 'ticket.sell': ['Alt+S'] } };
    bridge.emit('settings.changed', { seq: 7, settings });
    await settle();
    await fireEvent.keyDown(qty(), { key: 'F2' });
    expect(ticket.side).toBe('BUY');
    await fireEvent.keyDown(qty(), { key: 's', code: 'KeyS', altKey: true });
    expect(ticket.side).toBe('SELL');
  });

  it('saved keys that conflict are set aside whole: the preset applies and the reason is kept', async () => {
    const { hotkeys, ticket } = await mount({ 'ticket.buy': ['F2'] });
    expect(hotkeys.conflicts.map((c) => c.code)).toEqual(['duplicate']);
    // Said next to the ticket, never a silent fallback.
    expect(screen.getByTestId('keys-notice').textContent).toBe(
      'Your saved keys are not in use (F2 is bound to both Buy the focused instrument and Sell the focused instrument); the NEST (function keys) preset applies until they are fixed in Settings',
    );
    await fireEvent.keyDown(qty(), { key: 'F1' });
    expect(ticket.side).toBe('BUY');
    await fireEvent.keyDown(qty(), { key: 'F2' });
    expect(ticket.side).toBe('SELL');
  });
});
