import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, type IpcResult, type OrderIdResponse } from '@contract';
import type { HotkeyAction } from '../../../src-renderer/src/lib/hotkeys';
import { TicketState } from '../../../src-renderer/src/state/ticket.svelte';
import TicketProbe from '../../support/component/TicketProbe.svelte';
import { FakeBridge, deferred } from '../../support/component/fake-bridge';
import { SBIN } from '../../support/component/instruments';

async function setup() {
  const answer = deferred<IpcResult<OrderIdResponse>>();
  const bridge = new FakeBridge()
    .answer('settings.get', () => ({ ok: true, value: DEFAULT_SETTINGS }))
    .answer('market.symbol', () => ({ ok: true, value: SBIN }))
    .answer('orders.place', () => answer.promise);
  const ticket = new TicketState(bridge);
  await ticket.open('BUY', { symbol: 'SBIN', exchange: 'NSE' }, { lastPrice: 905.3 });
  const actions: HotkeyAction[] = [];
  render(TicketProbe, { ticket, onAction: (a: HotkeyAction) => actions.push(a) });
  return { bridge, ticket, answer, actions };
}

describe('a ticket form on TicketState (Testing Library, jsdom)', () => {
  it('shows the fields of the price type and the reasons as the trader types', async () => {
    await setup();
    expect(screen.getByLabelText('Price')).toHaveValue('905.30');
    expect(screen.queryByLabelText('Trigger')).not.toBeInTheDocument();
    await fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'SL-M' } });
    expect(screen.queryByLabelText('Price')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Trigger')).toBeInTheDocument();
    const issues = screen.getByRole('list', { name: 'Issues' });
    expect(within(issues).getByText('Trigger price is required for an SL-M order')).toBeInTheDocument();
    await fireEvent.input(screen.getByLabelText('Quantity'), { target: { value: '1.5' } });
    expect(within(issues).getByText('Quantity must be a positive whole number')).toBeInTheDocument();
  });

  it('steps the price one tick with ArrowUp', async () => {
    await setup();
    await fireEvent.keyDown(screen.getByLabelText('Price'), { key: 'ArrowUp' });
    expect(screen.getByLabelText('Price')).toHaveValue('905.35');
  });

  it('sends once for a double click on Send', async () => {
    const { bridge, ticket, answer } = await setup();
    const send = screen.getByRole('button', { name: 'Send' });
    // Two clicks before the page updates (the button is not disabled yet): the state's guard decides.
    send.click();
    send.click();
    expect(send).toBeEnabled();
    await tick();
    expect(send).toBeDisabled();
    answer.resolve({ ok: true, value: { status: 'success', orderid: '7' } });
    await vi.waitFor(() => expect(ticket.outcome).toEqual({ kind: 'placed', orderid: '7' }));
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
  });

  it('lets b type into a field while F1 still acts, and sends on Enter from the ticket once', async () => {
    const { bridge, actions, answer } = await setup();
    const search = screen.getByLabelText('Search');
    const b = new KeyboardEvent('keydown', { key: 'b', bubbles: true, cancelable: true });
    search.dispatchEvent(b);
    expect(b.defaultPrevented).toBe(false);
    await fireEvent.keyDown(search, { key: 'F1' });
    expect(actions).toEqual(['ticket.buy']);
    // Enter outside the ticket (the search field) is not "send".
    await fireEvent.keyDown(search, { key: 'Enter' });
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
    const qty = screen.getByLabelText('Quantity');
    await fireEvent.keyDown(qty, { key: 'Enter' });
    await fireEvent.keyDown(qty, { key: 'Enter' });
    answer.resolve({ ok: true, value: { status: 'success', orderid: '8' } });
    await tick();
    expect(actions).toEqual(['ticket.buy', 'ticket.send', 'ticket.send']);
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
  });
});
