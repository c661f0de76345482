// A basket's confirmation names the legs and their value at the last prices. A new last price for a
// MARKET leg changes that value, not what is sent: the question stays open (it closed on every tick,
// so a basket with a MARKET leg on a streaming market could not be confirmed), while a change of the
// legs themselves still closes it.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, expect, it } from 'vitest';
import type { QuoteData } from '@contract';
import Ticket from '../../../src-renderer/src/panes/Ticket.svelte';
import { AlertLog } from '../../../src-renderer/src/state/alert-log.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { ALERT_LOG, BOOKS, TICKET_MODES } from '../../../src-renderer/src/state/context';
import { TicketModes } from '../../../src-renderer/src/state/ticket-modes.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { SBIN } from '../../support/component/instruments';

afterEach(() => {
  document.body.replaceChildren();
});

const quote = (ltp: number): QuoteData => ({
  ltp,
  bid: ltp - 0.05,
  ask: ltp + 0.05,
  open: ltp,
  high: ltp,
  low: ltp,
  prev_close: ltp,
  volume: 100,
  oi: 0,
});

it('a new last price keeps the basket’s confirmation open; a changed leg closes it', async () => {
  const f = deskFixture({ instruments: [SBIN], confirmPlace: true });
  const modes = new TicketModes(f.bridge, { getItem: () => null, setItem: () => undefined });
  modes.set('basket');
  f.context.set(TICKET_MODES, modes);
  f.context.set(BOOKS, new BooksState(f.bridge));
  f.context.set(ALERT_LOG, new AlertLog(f.bridge));
  let ltp = 905.3;
  f.bridge.answer('market.multiquotes', (input) => ({
    ok: true,
    value: {
      status: 'success',
      results: (input?.symbols ?? []).map((s) => ({ ...s, data: quote(ltp) })),
    },
  }));
  render(Ticket, { context: f.context });
  await f.ticket.open('BUY', { symbol: 'SBIN', exchange: 'NSE' }, { lastPrice: ltp });
  await settle();
  await fireEvent.input(screen.getByLabelText(/One order a line/), { target: { value: 'SBIN NSE BUY 10' } });
  await fireEvent.click(screen.getByRole('button', { name: 'Add lines' }));
  await modes.basket.refreshQuotes();
  await settle();

  const send = screen.getByRole('button', { name: /Send basket: 1 order/ });
  send.focus();
  await fireEvent.keyDown(send, { key: 'Enter' });
  await settle();
  const ask = screen.getByRole('group', { name: 'Confirm the order' });
  expect(ask).toHaveTextContent('value ₹9,053.00');

  ltp = 906.1;
  await modes.basket.refreshQuotes();
  await settle();
  const still = screen.getByRole('group', { name: 'Confirm the order' });
  expect(still).toHaveTextContent('value ₹9,061.00');
  expect(within(still).getByRole('button', { name: /Confirm/ })).toBeTruthy();

  // Another leg is another basket: the question asked for the old one closes.
  modes.basket.legs = [...modes.basket.legs, { ...modes.basket.legs[0]!, quantity: 5 }];
  await settle();
  expect(screen.queryByRole('group', { name: 'Confirm the order' })).toBeNull();
});
