// Why an order will not go stands beside the regular ticket's send button, in the same docked block
// (never below it, out of view), and Enter on such an order says the reason again through a live
// region instead of doing nothing; nothing reaches the bridge.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import Ticket from '../../../src-renderer/src/panes/Ticket.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { NIFTY_FUT, SBIN } from '../../support/component/instruments';

afterEach(() => document.body.replaceChildren());

const VALUE_REASON = 'Order value ₹16,85,619.00 exceeds your limit of ₹10,00,000.00';

/** One lot of NIFTY futures (65 × 25,932.60) against a ₹10 lakh limit. */
async function refusedFuture() {
  const f = deskFixture({ instruments: [SBIN, NIFTY_FUT] });
  f.settings.risk.maxValuePerOrder = 10_00_000;
  render(Ticket, { context: f.context });
  await f.ticket.open(
    'BUY',
    { symbol: NIFTY_FUT.symbol, exchange: NIFTY_FUT.exchange },
    { lastPrice: 25932.6 },
  );
  await settle();
  return f;
}

const block = () => screen.getByTestId('send-block');
const sendButton = () => within(block()).getByRole('button', { name: /^Buy 65 NIFTY/ });

describe('reasons in view beside the send button', () => {
  it('shows why the order will not go inside the send block, and the button names it', async () => {
    await refusedFuture();
    expect(sendButton()).toHaveAttribute('aria-disabled', 'true');
    const reason = within(block()).getByText(VALUE_REASON);
    expect(block().contains(reason)).toBe(true);
    expect(sendButton()).toHaveAccessibleDescription(VALUE_REASON);
    // Said once: not again under the value line, away from the button.
    expect(screen.getAllByText(VALUE_REASON)).toHaveLength(1);
  });

  it('Enter on the refused order says the reason again in a live region, each press, and sends nothing', async () => {
    const f = await refusedFuture();
    const qty = screen.getByLabelText('Qty');
    expect(screen.queryByRole('alert')).toBeNull();
    await fireEvent.keyDown(qty, { key: 'Enter' });
    await settle();
    const said = within(block()).getByRole('alert');
    expect(said).toHaveTextContent(VALUE_REASON);
    // A second press puts the announcement in anew (the same words are said again, not skipped).
    await fireEvent.keyDown(qty, { key: 'Enter' });
    await settle();
    const again = within(block()).getByRole('alert');
    expect(again).not.toBe(said);
    expect(again).toHaveTextContent(VALUE_REASON);
    expect(f.bridge.callsTo('orders.place')).toEqual([]);
  });

  it('a field problem is said beside the button too, and the field is described by it', async () => {
    const f = await refusedFuture();
    f.ticket.priceText = '-25932.6';
    await settle();
    const reason = within(block()).getByText('Price must be above 0');
    expect(screen.getByLabelText('Price')).toHaveAccessibleDescription(reason.textContent ?? '');
    await fireEvent.keyDown(screen.getByLabelText('Qty'), { key: 'Enter' });
    await settle();
    expect(within(block()).getByRole('alert')).toHaveTextContent('Price must be above 0');
    expect(f.bridge.callsTo('orders.place')).toEqual([]);
  });

  it('no link to the gateway is a reason too: beside the button, said again on Enter, once on screen', async () => {
    const f = await refusedFuture();
    f.ticket.limits = { ...f.ticket.limits!, maxValuePerOrder: 50_00_000 };
    f.desk.connection = 'disconnected';
    await settle();
    const why = 'Gateway unreachable: not sending until it is back';
    expect(within(block()).getByText(why)).toBeInTheDocument();
    expect(screen.getAllByText(why)).toHaveLength(1);
    await fireEvent.keyDown(screen.getByLabelText('Qty'), { key: 'Enter' });
    await settle();
    expect(within(block()).getByRole('alert')).toHaveTextContent(why);
    expect(f.bridge.callsTo('orders.place')).toEqual([]);
  });

  it('once the order can go, no reason and no stale announcement remain', async () => {
    const f = await refusedFuture();
    await fireEvent.keyDown(screen.getByLabelText('Qty'), { key: 'Enter' });
    await settle();
    f.ticket.limits = { ...f.ticket.limits!, maxValuePerOrder: 50_00_000 };
    await settle();
    expect(screen.queryByTestId('send-reasons')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(sendButton()).toHaveAttribute('aria-disabled', 'false');
  });
});
