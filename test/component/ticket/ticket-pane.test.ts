// The ticket pane as a trader uses it: fields per price type, products per exchange, Enter sends
// once, the confirmation step, the duplicate guard's deliberate override, and refusals in words.
// Over 300 lines: the regular ticket's behaviours side by side, over one mount; the modes have files
// of their own.
import { fireEvent, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IpcResult, OrderIdResponse } from '@contract';
import { settle, type FixtureOptions } from '../../support/component/desk-fixture';
import { deferred } from '../../support/component/fake-bridge';
import { NIFTY_FUT, NIFTY_INDEX, SBIN } from '../../support/component/instruments';
import { mountTicketPane, placed } from '../../support/component/ticket-mount';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

const mountTicket = (options: FixtureOptions = {}, open = SBIN) =>
  mountTicketPane({ instruments: [SBIN, NIFTY_FUT, NIFTY_INDEX], open, options });

const qty = () => screen.getByLabelText('Qty') as HTMLInputElement;
const enter = (el: Element, init: KeyboardEventInit = {}) => fireEvent.keyDown(el, { key: 'Enter', ...init });

function chooseType(name: string): Promise<boolean> {
  return fireEvent.click(screen.getByRole('radio', { name }));
}

describe('fields per price type', () => {
  it('shows price, trigger and disclosed quantity only where the type uses them', async () => {
    const { ticket } = await mountTicket();
    const shown = () => ({
      price: screen.queryByLabelText('Price') !== null,
      trigger: screen.queryByLabelText('Trigger') !== null,
      disclosed: screen.queryByLabelText('Disclosed quantity') !== null,
    });
    await chooseType('Market');
    expect(ticket.priceType).toBe('MARKET');
    expect(shown()).toEqual({ price: false, trigger: false, disclosed: false });
    await chooseType('Limit');
    expect(shown()).toEqual({ price: true, trigger: false, disclosed: true });
    await chooseType('Stop-loss limit');
    expect(shown()).toEqual({ price: true, trigger: true, disclosed: true });
    await chooseType('Stop-loss market');
    expect(shown()).toEqual({ price: false, trigger: true, disclosed: false });
  });

  it('offers no disclosed quantity on a derivatives exchange', async () => {
    await mountTicket({}, NIFTY_FUT);
    await chooseType('Limit');
    expect(screen.queryByLabelText('Price')).not.toBeNull();
    expect(screen.queryByLabelText('Disclosed quantity')).toBeNull();
  });
});

describe('products per exchange', () => {
  const products = () =>
    within(screen.getByRole('group', { name: 'Product' }))
      .getAllByRole('radio')
      .map((r) => (r as HTMLInputElement).value);

  it('NSE offers CNC and MIS; NFO offers NRML and MIS', async () => {
    const a = await mountTicket();
    expect(products()).toEqual(['CNC', 'MIS']);
    a.view.unmount();
    await mountTicket({}, NIFTY_FUT);
    expect(products()).toEqual(['NRML', 'MIS']);
  });

  it('an index offers no product and says it is quote-only', async () => {
    await mountTicket({}, NIFTY_INDEX);
    expect(screen.queryByRole('group', { name: 'Product' })).toBeNull();
    expect(screen.getByText(/quote-only/)).toBeInTheDocument();
  });
});

describe('sending once', () => {
  it('a double Enter sends one order, and the second press says why it did nothing', async () => {
    const { bridge, ticket } = await mountTicket();
    const answer = deferred<IpcResult<OrderIdResponse>>();
    bridge.answer('orders.place', () => answer.promise);
    qty().value = '10';
    await fireEvent.input(qty());
    await enter(qty());
    await enter(qty());
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    answer.resolve(placed('111'));
    await settle();
    await enter(qty());
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    expect(bridge.callsTo('orders.place')[0]?.input).toMatchObject({
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'BUY',
      quantity: 10,
      pricetype: 'LIMIT',
      price: 905.3,
      product: 'CNC',
    });
    // The third press came within the confirm arm window of the answer: the same hurried press.
    expect(ticket.ignoredSubmits).toBe(2);
    expect(screen.getByText('Placed · order 111')).toBeInTheDocument();
    expect(screen.getByText('Sent once: the extra press was ignored')).toBeInTheDocument();
  });

  it('says an extra press was ignored while sending and after, and forgets it for the next order', async () => {
    const { bridge } = await mountTicket();
    let answer = deferred<IpcResult<OrderIdResponse>>();
    bridge.answer('orders.place', () => answer.promise);
    await enter(qty());
    await enter(qty());
    expect(screen.getByText('Still sending: the extra press was ignored')).toBeInTheDocument();
    answer.resolve(placed('21'));
    await settle();
    expect(screen.getByText('Sent once: the extra press was ignored')).toBeInTheDocument();
    // The next order, sent once, says nothing of the earlier press.
    answer = deferred<IpcResult<OrderIdResponse>>();
    qty().value = '2';
    await fireEvent.input(qty());
    await enter(qty());
    answer.resolve(placed('22'));
    await settle();
    expect(screen.getByText('Placed · order 22')).toBeInTheDocument();
    expect(screen.queryByText(/extra press|Already sent/)).toBeNull();
    expect(bridge.callsTo('orders.place')).toHaveLength(2);
  });

  it('a double click on the send button sends one order', async () => {
    const { bridge } = await mountTicket();
    bridge.answer('orders.place', () => placed('7'));
    await chooseType('Market');
    const send = screen.getByRole('button', { name: /^Buy 1 SBIN @ MKT/ });
    await fireEvent.click(send);
    await fireEvent.click(send);
    await settle();
    await fireEvent.click(send);
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
  });

  it('a held Enter (key repeat) is one press', async () => {
    const { bridge } = await mountTicket();
    bridge.answer('orders.place', () => placed('8'));
    await enter(qty(), { repeat: true });
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
  });

  it('an incomplete order is not sent: the reason is shown and the field gets the caret', async () => {
    const { bridge } = await mountTicket();
    qty().value = '';
    await fireEvent.input(qty());
    await enter(qty());
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
    expect(screen.getAllByText('Quantity is required').length).toBeGreaterThan(0);
    expect(document.activeElement).toBe(qty());
  });

  it('the send button says what it will do', async () => {
    await mountTicket({}, NIFTY_FUT);
    await chooseType('Market');
    expect(screen.getByRole('button', { name: /^Buy 65 NIFTY 25 NOV FUT @ MKT/ })).toBeInTheDocument();
    await fireEvent.click(screen.getByRole('radio', { name: 'lots' }));
    await fireEvent.click(screen.getByRole('radio', { name: /SELL/ }));
    expect(
      screen.getByRole('button', { name: /^Sell 1 lot \(65\) NIFTY 25 NOV FUT @ MKT/ }),
    ).toBeInTheDocument();
  });
});

describe('the confirmation step', () => {
  it('asks first; an Enter right after it appears is not a yes; Esc goes back; Enter then sends once', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { bridge } = await mountTicket({ confirmPlace: true });
    bridge.answer('orders.place', () => placed('9'));
    await enter(qty());
    const group = screen.getByRole('group', { name: 'Confirm the order' });
    expect(group).toHaveTextContent('Buy 1 SBIN @ 905.30 on NSE · CNC');
    const yes = screen.getByRole('button', { name: /Confirm/ });
    expect(document.activeElement).toBe(yes);
    await enter(yes);
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
    expect(screen.getByText('Press Enter again to confirm')).toBeInTheDocument();
    // Esc: nothing sent, back to the quantity.
    await fireEvent.keyDown(yes, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Confirm the order' })).toBeNull();
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
    // Ask again, wait past the arming delay, confirm twice.
    await enter(qty());
    vi.advanceTimersByTime(400);
    const again = screen.getByRole('button', { name: /Confirm/ });
    await enter(again);
    await enter(qty());
    await settle();
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
  });

  it('turning the new-order confirmation off is saved in settings and Enter then sends at once', async () => {
    const { bridge, settings } = await mountTicket({ confirmPlace: true });
    bridge.answer('orders.place', () => placed('10'));
    await fireEvent.click(screen.getByRole('checkbox', { name: 'New order' }));
    await settle();
    expect(bridge.callsTo('settings.update').at(-1)?.input).toEqual({ confirmations: { place: false } });
    expect(settings.confirmations.place).toBe(false);
    await enter(qty());
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
  });
});

describe('refusals next to the ticket', () => {
  it('the duplicate guard holds the order back; the override sends it deliberately, once', async () => {
    const { bridge } = await mountTicket();
    bridge.answer('orders.place', (input) =>
      input?.confirmDuplicate
        ? placed('12')
        : {
            ok: false,
            error: { kind: 'duplicate', message: 'The same order was sent 1.2 s ago (order 11)' },
          },
    );
    await enter(qty());
    await settle();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Held back by the duplicate guard: The same order was sent 1.2 s ago (order 11)',
    );
    const override = screen.getByRole('button', { name: /Send anyway/ });
    // Enter on the override button is its own click, never a plain send.
    await enter(override);
    expect(bridge.callsTo('orders.place')).toHaveLength(1);
    await fireEvent.click(override);
    await settle();
    const calls = bridge.callsTo('orders.place');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.input).toMatchObject({ symbol: 'SBIN', confirmDuplicate: true });
    expect(screen.getByText('Placed · order 12')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Send anyway/ })).toBeNull();
  });

  it("the gateway's message is shown when it refuses", async () => {
    const { bridge } = await mountTicket();
    bridge.answer('orders.place', () => ({
      ok: false,
      error: {
        kind: 'bad_input',
        message: 'Insufficient funds: required 905.30, available 0.00',
        httpStatus: 400,
      },
    }));
    await enter(qty());
    await settle();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Refused by the gateway: Insufficient funds: required 905.30, available 0.00',
    );
    expect(screen.queryByRole('button', { name: /Send anyway/ })).toBeNull();
  });

  it('an unreachable gateway is named as the reason nothing was sent, not as a refusal', async () => {
    const { bridge } = await mountTicket();
    bridge.answer('orders.place', () => ({
      ok: false,
      error: {
        kind: 'network',
        message: "the gateway did not give SBIN's last price for the risk check: connect ECONNREFUSED",
      },
    }));
    await enter(qty());
    await settle();
    expect(screen.getByRole('alert')).toHaveTextContent(
      "Not sent, the gateway is unreachable: the gateway did not give SBIN's last price for the risk check: connect ECONNREFUSED",
    );
  });

  it('a risk breach is shown while typing, before anything is sent', async () => {
    const { bridge } = await mountTicket();
    qty().value = '20000';
    await fireEvent.input(qty());
    expect(screen.getByText('Quantity 20,000 exceeds your limit of 10,000 per order')).toBeInTheDocument();
    await enter(qty());
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
  });

  it('does not send while the gateway is unreachable, and says so', async () => {
    const { bridge, desk } = await mountTicket();
    desk.connection = 'disconnected';
    await settle();
    await enter(qty());
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
    expect(screen.getAllByText('Gateway unreachable: not sending until it is back').length).toBeGreaterThan(
      0,
    );
  });
});

describe('Esc', () => {
  it('clears the draft back to one lot at the last price, keeping the segment order type, sending nothing', async () => {
    const { bridge, ticket } = await mountTicket();
    qty().value = '7';
    await fireEvent.input(qty());
    await chooseType('Market');
    await fireEvent.keyDown(qty(), { key: 'Escape' });
    await settle();
    expect(ticket.quantityText).toBe('1');
    // MARKET was chosen for an equity symbol: the fresh ticket keeps it (settings.ticketDefaults).
    expect(ticket.priceType).toBe('MARKET');
    expect(ticket.priceText).toBe('905.30');
    expect(screen.getByText('Ticket cleared')).toBeInTheDocument();
    expect(bridge.callsTo('orders.place')).toHaveLength(0);
  });
});

describe('prices by the tick', () => {
  it('↑/↓ in the price field step one tick', async () => {
    await mountTicket();
    const price = screen.getByLabelText('Price') as HTMLInputElement;
    expect(price.value).toBe('905.30');
    await fireEvent.keyDown(price, { key: 'ArrowUp' });
    expect(price.value).toBe('905.35');
    await fireEvent.keyDown(price, { key: 'ArrowDown' });
    await fireEvent.keyDown(price, { key: 'ArrowDown' });
    expect(price.value).toBe('905.25');
  });
});
