// Firing the same order again, as a scalper does on purpose: after the gateway answered, the same keys
// (F1, Enter) send a new order; a press while one is in flight, or the same hurried press within the
// confirm arm window of the answer, sends nothing. The repeat-last key (NEST: Shift+F12) asks first,
// showing what goes, and then sends the last placed order once, whatever the ticket shows now.
import { fireEvent, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcResult, OrderIdResponse } from '@contract';
import { CONFIRM_ARM_MS } from '../../../src-renderer/src/state/send-step.svelte';
import { settle, type FixtureOptions } from '../../support/component/desk-fixture';
import { deferred } from '../../support/component/fake-bridge';
import { NIFTY_FUT, SBIN } from '../../support/component/instruments';
import { mountTicketPane, placed } from '../../support/component/ticket-mount';

afterEach(() => document.body.replaceChildren());

const mountTicket = (options: FixtureOptions = {}) =>
  mountTicketPane({ instruments: [SBIN, NIFTY_FUT], side: 'SELL', options });

const qty = () => screen.getByLabelText('Qty') as HTMLInputElement;
const press = async (key: string, init: KeyboardEventInit = {}, el: Element = qty()) => {
  await fireEvent.keyDown(el, { key, ...init });
  await settle();
};
/** Real time past the confirm arm window: the next press is a distinct one. */
const later = () => new Promise((r) => setTimeout(r, CONFIRM_ARM_MS + 30));
const repeatBox = () => screen.getByRole('region', { name: 'Repeat the last order' });

describe('the same keys after an answer', () => {
  it('answered: F1, quantity and Enter send a second order on a distinct press', async () => {
    const { bridge } = await mountTicket();
    let n = 0;
    bridge.answer('orders.place', () => placed(String(++n)));
    await press('F1');
    qty().value = '10';
    await fireEvent.input(qty());
    await press('Enter');
    expect(screen.getByText('Placed · order 1')).toBeInTheDocument();
    await later();
    await press('F1');
    await press('Enter');
    const calls = bridge.callsTo('orders.place');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.input).toEqual(calls[0]?.input);
    expect(calls[1]?.input).toMatchObject({ symbol: 'SBIN', action: 'BUY', quantity: 10 });
    expect(screen.getByText('Placed · order 2')).toBeInTheDocument();
    expect(screen.queryByText(/Already sent|extra press/)).toBeNull();
  });

  it('in flight: a second Enter sends nothing, and says so', async () => {
    const { bridge } = await mountTicket();
    const answer = deferred<IpcResult<OrderIdResponse>>();
    bridge.answer('orders.place', () => answer.promise);
    await press('Enter');
    await press('Enter');
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    expect(screen.getByText('Still sending: the extra press was ignored')).toBeInTheDocument();
    answer.resolve(placed('5'));
    await settle();
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
  });

  it('the same hurried press right after the answer sends nothing; after the window it sends', async () => {
    const { bridge, ticket } = await mountTicket();
    bridge.answer('orders.place', () => placed('9'));
    await press('Enter');
    await press('Enter');
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    expect(ticket.ignoredSubmits).toBe(1);
    expect(screen.getByText('Sent once: the extra press was ignored')).toBeInTheDocument();
    await later();
    await press('Enter');
    expect(bridge.callsTo('orders.place')).toHaveLength(2);
  });

  it('with the confirmation on, the second order is asked again and sent only on its Confirm', async () => {
    const { bridge } = await mountTicket({ confirmPlace: true });
    bridge.answer('orders.place', () => placed('3'));
    await press('Enter');
    await later();
    await press('Enter', {}, document.activeElement ?? qty());
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    await later();
    await press('Enter');
    expect(screen.getByRole('group', { name: 'Confirm the order' })).toBeInTheDocument();
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    await later();
    await press('Enter', {}, document.activeElement ?? qty());
    expect(bridge.callsTo('orders.place')).toHaveLength(2);
  });

  it('an outcome not known yet is never sent again from the ticket', async () => {
    const { bridge } = await mountTicket();
    bridge.answer('orders.place', () => ({
      ok: false,
      error: { kind: 'unknown_outcome', message: 'unknown — reconciling' },
    }));
    await press('Enter');
    await later();
    await press('Enter');
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    expect(screen.getByText(/Already sent, its outcome not known yet/)).toBeInTheDocument();
  });
});

describe('the repeat-last key', () => {
  it('with no order placed yet it says so, and sends nothing', async () => {
    const { bridge } = await mountTicket();
    await press('F12', { shiftKey: true });
    expect(within(repeatBox()).getByText('No order to repeat yet: place one first')).toBeInTheDocument();
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
  });

  it('asks with the last order in words, then sends it once, though the ticket shows another symbol', async () => {
    const { bridge, ticket } = await mountTicket();
    let n = 0;
    bridge.answer('orders.place', () => placed(`R${++n}`));
    await press('F7');
    qty().value = '25';
    await fireEvent.input(qty());
    await press('Enter');
    const first = bridge.callsTo('orders.place')[0]?.input;
    expect(first).toMatchObject({ symbol: 'SBIN', action: 'SELL', quantity: 25, pricetype: 'MARKET' });
    await ticket.open(
      'BUY',
      { symbol: NIFTY_FUT.symbol, exchange: NIFTY_FUT.exchange },
      { lastPrice: 24010 },
    );
    await settle();
    await press('F12', { shiftKey: true });
    const question = within(repeatBox()).getByRole('group', { name: 'Confirm the order' });
    expect(question.textContent).toContain('Repeat the last order: Sell 25 SBIN @ MKT on NSE · CNC');
    expect(document.activeElement?.textContent).toMatch(/^Confirm/);
    // The same hurried press: not a yes.
    await press('Enter', {}, document.activeElement!);
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    await later();
    // A double Enter on Confirm: the second is the same press, not a send of the ticket's own order.
    await press('Enter', {}, document.activeElement!);
    await press('Enter', {}, document.activeElement!);
    const calls = bridge.callsTo('orders.place');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.input).toEqual({ ...(first as object), confirmDuplicate: true });
    expect(within(repeatBox()).getByText('Repeated · order R2')).toBeInTheDocument();
    expect(within(repeatBox()).getByText('Repeat sent: the extra press was ignored')).toBeInTheDocument();
    // The ticket still shows the future it was on.
    expect(ticket.instrument?.symbol).toBe(NIFTY_FUT.symbol);
  });

  it('works from outside the ticket too: the question opens with Confirm focused', async () => {
    const { bridge } = await mountTicket();
    bridge.answer('orders.place', () => placed('W1'));
    await press('Enter');
    const outside = document.body.appendChild(document.createElement('button'));
    outside.focus();
    await press('F12', { shiftKey: true }, outside);
    expect(within(repeatBox()).getByRole('group', { name: 'Confirm the order' })).toBeInTheDocument();
    expect(document.activeElement?.textContent).toMatch(/^Confirm/);
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
  });

  it('Esc on the question sends nothing and says so', async () => {
    const { bridge } = await mountTicket();
    bridge.answer('orders.place', () => placed('E1'));
    await press('Enter');
    await later();
    await press('F12', { shiftKey: true });
    expect(within(repeatBox()).getByRole('group', { name: 'Confirm the order' })).toBeInTheDocument();
    await later();
    await press('Escape', {}, document.activeElement!);
    expect(within(repeatBox()).queryByRole('group', { name: 'Confirm the order' })).toBeNull();
    expect(within(repeatBox()).getByText('Not sent')).toBeInTheDocument();
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
  });
});
