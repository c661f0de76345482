// "Sending…" is shown only once a send has taken a moment (the keystroke then needs no frame of its
// own before a quick answer), but the send is refused while in flight from the first instant.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import Ticket from '../../../src-renderer/src/panes/Ticket.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { SBIN } from '../../support/component/instruments';

afterEach(() => document.body.replaceChildren());

describe('the send button while an order is in flight', () => {
  it('says "Sending…" only after a moment, and a second Enter meanwhile sends nothing', async () => {
    const f = deskFixture({ instruments: [SBIN] });
    let answer: (v: { ok: true; value: { status: 'success'; orderid: string } }) => void = () => {};
    f.bridge.answer('orders.place', () => new Promise((resolve) => (answer = resolve as typeof answer)));
    render(Ticket, { context: f.context });
    await f.ticket.open('BUY', { symbol: 'SBIN', exchange: 'NSE' }, { lastPrice: 905.3 });
    await settle();
    const qty = screen.getByLabelText('Qty');
    await fireEvent.input(qty, { target: { value: '5' } });
    await settle();

    await fireEvent.keyDown(qty, { key: 'Enter' });
    await settle();
    expect(f.bridge.callsTo('orders.place')).toHaveLength(1);
    // Within the first moment: no "Sending…" yet, and the button is not greyed out.
    expect(screen.queryByRole('button', { name: /^Sending…/ })).toBeNull();
    await fireEvent.keyDown(qty, { key: 'Enter' });
    await settle();
    expect(f.bridge.callsTo('orders.place')).toHaveLength(1);

    const sending = await screen.findByRole('button', { name: /^Sending… Buy 5 SBIN/ });
    expect(sending).toHaveAttribute('aria-disabled', 'true');

    answer({ ok: true, value: { status: 'success', orderid: 'X1' } });
    await settle();
    expect(screen.queryByRole('button', { name: /^Sending…/ })).toBeNull();
    expect(screen.getByText(/Placed · order X1/)).toBeInTheDocument();
    expect(f.bridge.callsTo('orders.place')).toHaveLength(1);
  });
});
