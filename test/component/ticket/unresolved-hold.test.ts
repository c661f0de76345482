// The core's hold on an order whose identical twin is still in doubt (`unresolved_duplicate`), as the
// ticket shows it: the reason in words, not a "sent" state, and the same deliberate override the
// duplicate guard has ("Send anyway", a button of its own, reached by Tab), in the regular ticket and in
// the modes that share the send-once guard (Basket here; Split and Smart use the same guard).
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import Ticket from '../../../src-renderer/src/panes/Ticket.svelte';
import { AlertLog } from '../../../src-renderer/src/state/alert-log.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { ALERT_LOG, BOOKS, TICKET_MODES } from '../../../src-renderer/src/state/context';
import { TicketModes, type TicketMode } from '../../../src-renderer/src/state/ticket-modes.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { confirmFlags, sendHeldBasket } from '../../support/component/held-send';
import { NIFTY_FUT, SBIN } from '../../support/component/instruments';
import { placed } from '../../support/component/ticket-mount';

afterEach(() => {
  document.body.replaceChildren();
});

const HELD =
  'the same order from 09:59:56 is still being reconciled (BUY 1 SBIN NSE LIMIT @ ₹905.30 MIS: its outcome is not known yet); send it again only if you mean a second order';

async function mount(mode?: TicketMode) {
  const f = deskFixture({ instruments: [SBIN, NIFTY_FUT] });
  const store = new Map<string, string>();
  const modes = new TicketModes(f.bridge, {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
  });
  if (mode) modes.set(mode);
  f.context.set(TICKET_MODES, modes);
  f.context.set(BOOKS, new BooksState(f.bridge));
  f.context.set(ALERT_LOG, new AlertLog(f.bridge));
  render(Ticket, { context: f.context });
  await f.ticket.open('BUY', { symbol: SBIN.symbol, exchange: SBIN.exchange }, { lastPrice: 905.3 });
  await settle();
  return { ...f, modes };
}

const enter = (el: Element) => fireEvent.keyDown(el, { key: 'Enter' });

describe('an order held while the same one is in doubt', () => {
  it('the regular ticket says why in words and sends it only through "Send anyway"', async () => {
    const { bridge } = await mount();
    bridge.answer('orders.place', (input) =>
      input?.confirmDuplicate
        ? placed('21')
        : { ok: false, error: { kind: 'unresolved_duplicate', message: HELD } },
    );
    await enter(screen.getByLabelText('Qty'));
    await settle();
    expect(screen.getByRole('alert')).toHaveTextContent(`Held back, not sent: ${HELD}`);
    expect(screen.queryByText(/Placed/)).toBeNull();
    // Enter again on the ticket is not the override: it asks without it and is held again.
    await enter(screen.getByLabelText('Qty'));
    await settle();
    expect(screen.getByRole('alert')).toHaveTextContent(`Held back, not sent: ${HELD}`);
    const override = screen.getByRole('button', { name: /Send anyway/ });
    override.focus();
    expect(document.activeElement).toBe(override);
    await fireEvent.click(override);
    await settle();
    expect(confirmFlags(bridge, 'orders.place')).toEqual([undefined, undefined, true]);
    expect(screen.getByText('Placed · order 21')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Send anyway/ })).toBeNull();
  });

  it('a basket held so is offered "Send anyway" too, sent once with confirmDuplicate', async () => {
    const f = await mount('basket');
    await sendHeldBasket(f, { kind: 'unresolved_duplicate', message: HELD }, 'B1');
    expect(screen.getByRole('alert')).toHaveTextContent(`Held back, not sent: ${HELD}`);
    await fireEvent.click(screen.getByRole('button', { name: /Send anyway/ }));
    await settle();
    expect(confirmFlags(f.bridge, 'orders.basket')).toEqual([undefined, true]);
    expect(screen.queryByRole('button', { name: /Send anyway/ })).toBeNull();
  });
});
