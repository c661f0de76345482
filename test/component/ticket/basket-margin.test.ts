// The basket's margin on a gateway (live) profile is the gateway's for all its legs (asked after a
// pause, labelled with its source), "margin unknown" when the gateway cannot say, never the paper
// leverage table; a basket that needs more than the available cash says so in words and is sent only
// from a confirmation.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IpcResult, MarginEstimate, ProfileView } from '@contract';
import Ticket from '../../../src-renderer/src/panes/Ticket.svelte';
import { AlertLog } from '../../../src-renderer/src/state/alert-log.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { ALERT_LOG, BOOKS, TICKET_MODES } from '../../../src-renderer/src/state/context';
import { TicketModes } from '../../../src-renderer/src/state/ticket-modes.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { SBIN } from '../../support/component/instruments';
import { pass, useMovedClock } from '../../support/component/moved-clock';
import { snapshot } from '../../support/component/session';

beforeEach(useMovedClock);
afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

/** Past the ticket's pause before it asks the gateway (300 ms), on the moved clock. */
const pause = (ms = 450) => pass(ms);

function gatewayProfile(): ProfileView {
  return {
    ...snapshot().profile,
    id: 'broker',
    name: 'Broker',
    kind: 'gateway',
    baseUrl: 'http://127.0.0.1:5000',
  };
}

async function mount(margin: () => IpcResult<MarginEstimate>, available?: string) {
  const f = deskFixture({ instruments: [SBIN] });
  f.settings.risk = { ...f.settings.risk, maxQuantityPerOrder: 100_000_000, maxValuePerOrder: 1e12 };
  f.desk.profile = gatewayProfile();
  const modes = new TicketModes(f.bridge, { getItem: () => null, setItem: () => undefined });
  modes.set('basket');
  const books = new BooksState(f.bridge);
  if (available !== undefined)
    books.funds = {
      availableCash: available,
      collateral: '0.00',
      realisedMtm: '0.00',
      unrealisedMtm: '0.00',
      utilisedDebits: '0.00',
    };
  f.context.set(TICKET_MODES, modes);
  f.context.set(BOOKS, books);
  f.context.set(ALERT_LOG, new AlertLog(f.bridge));
  f.bridge.answer('orders.margin', margin);
  f.bridge.answer('market.multiquotes', () => ({
    ok: false,
    error: { kind: 'network', message: 'offline' },
  }));
  render(Ticket, { context: f.context });
  await f.ticket.open('BUY', { symbol: 'SBIN', exchange: 'NSE' }, { lastPrice: 905.3 });
  await settle();
  return f;
}

async function paste(lines: string): Promise<void> {
  await fireEvent.input(screen.getByLabelText(/One order a line/), { target: { value: lines } });
  await fireEvent.click(screen.getByRole('button', { name: 'Add lines' }));
  await settle();
}

describe('the basket’s margin on a gateway profile', () => {
  it('asks the gateway for all the legs and shows its figure, labelled with its source', async () => {
    const f = await mount(() => ({
      ok: true,
      value: { total: '2100.00', span: '0.00', exposure: '2100.00', source: 'gateway' },
    }));
    await paste('SBIN NSE BUY 10 900\nSBIN NSE SELL 2 910');
    await pause();
    // The ticket above asks for its own order; the basket asks once for its two legs.
    const asks = f.bridge
      .callsTo('orders.margin')
      .filter((c) => (c.input as { positions: unknown[] }).positions.length === 2);
    expect(asks).toHaveLength(1);
    expect(asks[0]?.input).toMatchObject({
      positions: [
        { symbol: 'SBIN', action: 'BUY', quantity: 10, price: 900 },
        { symbol: 'SBIN', action: 'SELL', quantity: 2, price: 910 },
      ],
    });
    const totals = screen.getByTestId('basket-totals');
    expect(totals).toHaveTextContent('Margin ₹2,100.00 (gateway)');
    expect(totals).not.toHaveTextContent(/≈|leverage/);
  });

  it('says "margin unknown" when the gateway has no margin operation, never the paper table', async () => {
    await mount(() => ({
      ok: false,
      error: { kind: 'not_offered', message: 'the gateway does not offer margin', httpStatus: 404 },
    }));
    await paste('SBIN NSE BUY 10 900');
    await pause();
    const totals = screen.getByTestId('basket-totals');
    expect(totals).toHaveTextContent(/Margin unknown/);
    expect(totals).not.toHaveTextContent(/≈|leverage/);
  });

  it('a basket needing more than the available cash says so, and is sent only from the confirmation', async () => {
    const f = await mount(
      () => ({
        ok: true,
        value: { total: '18000000.00', span: '0.00', exposure: '18000000.00', source: 'gateway' },
      }),
      '10000000.00',
    );
    f.bridge.answer('orders.basket', () => ({
      ok: true,
      value: {
        status: 'success',
        results: [{ symbol: 'SBIN', exchange: 'NSE', status: 'success', orderid: 'B9' }],
      },
    }));
    await paste('SBIN NSE BUY 20000 900');
    await pause();
    const warning = 'This basket needs about ₹1,80,00,000.00 of margin; ₹1,00,00,000.00 is available';
    expect(screen.getByTestId('basket-totals')).toHaveTextContent(warning);
    const send = screen.getByRole('button', { name: /Send basket: 1 order/ });
    send.focus();
    await fireEvent.keyDown(send, { key: 'Enter' });
    await settle();
    expect(f.bridge.callsTo('orders.basket')).toHaveLength(0);
    const ask = screen.getByRole('group', { name: 'Confirm the order' });
    expect(ask).toHaveTextContent(warning);
    await pause(350);
    await fireEvent.click(within(ask).getByRole('button', { name: /Confirm/ }));
    await settle();
    expect(f.bridge.callsTo('orders.basket')).toHaveLength(1);
  });
});
