// The ticket's Basket mode as a trader uses it: legs from the ticket or pasted, totals, one send with
// each leg's result, the duplicate guard's override, and named baskets saved and loaded.
import { fireEvent, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle } from '../../support/component/desk-fixture';
import { confirmFlags, sendHeldBasket } from '../../support/component/held-send';
import { quote, mount, working, cells, enter, waitPreview } from './modes-fixture';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe('Basket mode', () => {
  it('pastes lines, names the bad one, totals the good ones, sends once and lists each leg’s result', async () => {
    const { bridge } = await mount({ mode: 'basket' });
    bridge.answer('market.multiquotes', () => ({
      ok: true,
      value: {
        status: 'success',
        results: [{ symbol: 'SBIN', exchange: 'NSE', data: quote(900) }],
      },
    }));
    const paste = screen.getByLabelText(/One order a line/);
    await fireEvent.input(paste, {
      target: { value: 'INFY NSE SELL 5 1500.5\nINFY NSX SELL 5 1500\nSBIN NSE BUY 10' },
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Add lines' }));
    await settle();
    expect(screen.getByTestId('basket-errors')).toHaveTextContent(
      'Line 1, exchange "NSX": not an exchange orders go to',
    );
    // The bad line stays in the box to be fixed; the good ones became legs.
    expect((paste as HTMLTextAreaElement).value).toBe('INFY NSX SELL 5 1500');
    expect(screen.getAllByTestId('basket-leg')).toHaveLength(2);
    // 10 × 900 (last price) + 5 × 1500.50 = 16,502.50; margin: MIS equity at 5× = 3,300.50.
    const totals = screen.getByTestId('basket-totals');
    expect(totals).toHaveTextContent('Value ₹16,502.50');
    expect(totals).toHaveTextContent('Margin estimate ≈ ₹3,300.50');

    // Results in the paper gateway's placement order (BUY legs first, no action given), matched to
    // their legs: the SELL leg typed first gets the second result.
    bridge.answer('orders.basket', () => ({
      ok: true,
      value: {
        status: 'success',
        results: [
          { symbol: 'SBIN', exchange: 'NSE', status: 'success', orderid: 'B1' },
          { symbol: 'INFY', exchange: 'NSE', status: 'error', message: 'Insufficient funds' },
        ],
      },
    }));
    const send = screen.getByRole('button', { name: /Send basket: 2 orders/ });
    send.focus();
    await enter(send);
    await enter(send);
    await settle();
    expect(bridge.callsTo('orders.basket')).toHaveLength(1);
    expect(bridge.callsTo('orders.basket')[0]?.input).toMatchObject({
      orders: [
        { symbol: 'INFY', exchange: 'NSE', action: 'SELL', quantity: 5, pricetype: 'LIMIT', price: 1500.5 },
        { symbol: 'SBIN', exchange: 'NSE', action: 'BUY', quantity: 10, pricetype: 'MARKET' },
      ],
    });
    const results = screen.getAllByTestId('basket-result');
    expect(cells(results[0])).toEqual(['SELL 5 INFY', '—', 'not placed']);
    expect(screen.getByTestId('basket-result-reason')).toHaveTextContent('Insufficient funds');
    expect(cells(results[1])).toEqual(['BUY 10 SBIN', 'B1', 'placed']);
    expect(screen.getByText('Sent: 1 of 2 legs placed')).toBeInTheDocument();
  });

  it('Enter in the ticket adds its order as a leg; the send asks first when confirmations are on', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { bridge } = await mount({ mode: 'basket', confirmPlace: true });
    await enter(screen.getByLabelText('Qty'));
    expect(screen.getAllByTestId('basket-leg')).toHaveLength(1);
    expect(bridge.callsTo('orders.basket')).toHaveLength(0);
    bridge.answer('orders.basket', () => ({
      ok: true,
      value: { status: 'success', results: [{ symbol: 'SBIN', status: 'success', orderid: 'B9' }] },
    }));
    const send = screen.getByRole('button', { name: /Send basket: 1 order/ });
    send.focus();
    await enter(send);
    const yes = screen.getByRole('button', { name: /Confirm/ });
    expect(screen.getByRole('group', { name: 'Confirm the order' })).toHaveTextContent(
      'Send 1 order: BUY 1 SBIN · value ₹905.30',
    );
    await enter(yes);
    expect(bridge.callsTo('orders.basket')).toHaveLength(0);
    vi.advanceTimersByTime(400);
    await enter(screen.getByRole('button', { name: /Confirm/ }));
    await settle();
    expect(bridge.callsTo('orders.basket')).toHaveLength(1);
  });

  it('the duplicate guard holds the basket back; "Send anyway" sends it deliberately, once', async () => {
    const f = await mount({ mode: 'basket' });
    const { bridge } = f;
    const send = await sendHeldBasket(
      f,
      { kind: 'duplicate', message: 'The same order was sent 1.2 s ago' },
      'D1',
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Held back by the duplicate guard: The same order was sent 1.2 s ago',
    );
    await fireEvent.click(screen.getByRole('button', { name: 'Send anyway: this is not a duplicate' }));
    await settle();
    expect(confirmFlags(bridge, 'orders.basket')).toEqual([undefined, true]);
    expect(screen.queryByRole('button', { name: /Send anyway/ })).toBeNull();
    await enter(send);
    await settle();
    expect(bridge.callsTo('orders.basket')).toHaveLength(2);
  });

  it('a smart order held back as a duplicate is offered "Send anyway" too', async () => {
    const { bridge } = await mount({ mode: 'smart', position: 0 });
    await fireEvent.input(screen.getByLabelText('Target position'), { target: { value: '5' } });
    await waitPreview();
    bridge.answer('orders.smart', () => ({
      ok: false,
      error: { kind: 'duplicate', message: 'Sent 0.4 s ago' },
    }));
    await enter(screen.getByLabelText('Target position'));
    await settle();
    bridge
      .answer('orders.smart', () => ({ ok: true, value: { status: 'success', orderid: 'D2' } }))
      .answer('orders.status', () => ({ ok: true, value: working('D2', 5) }));
    await fireEvent.click(screen.getByRole('button', { name: 'Send anyway: this is not a duplicate' }));
    await settle();
    expect(bridge.callsTo('orders.smart').at(-1)?.input).toMatchObject({
      confirmDuplicate: true,
      position_size: 5,
    });
    expect(screen.getByTestId('smart-check')).toHaveTextContent('As previewed: BUY 5 (order D2)');
  });

  it('a leg the ticket’s rules refuse is named under it and holds the basket back', async () => {
    const { bridge, modes } = await mount({ mode: 'basket' });
    // Off the lot (65) and an instrument the gateway does not know: the core would refuse the basket.
    modes.basket.pasteText = 'NIFTY25NOV26FUT NFO BUY 10 25800.1\nNOPE NSE BUY 1 10\nSBIN NSE BUY 1 905.30';
    modes.basket.addPasted();
    await settle();
    const issues = screen.getAllByTestId('basket-leg-issue').map((r) => r.textContent?.trim());
    expect(issues).toEqual([
      'Leg 1: Quantity must be a multiple of the lot size 65',
      'Leg 2: Symbol NOPE not found in exchange NSE',
    ]);
    const send = screen.getByRole('button', { name: /Send basket: 3 orders/ });
    expect(send).toHaveAttribute('aria-disabled', 'true');
    send.focus();
    await enter(send);
    await settle();
    // The press says why beside the button, never silently.
    expect(screen.getAllByText('Leg 1: Quantity must be a multiple of the lot size 65')).toHaveLength(2);
    expect(bridge.callsTo('orders.basket')).toHaveLength(0);
    // Removed, the rest may go.
    await fireEvent.click(screen.getByRole('button', { name: /^Remove leg 2:/ }));
    await fireEvent.click(screen.getByRole('button', { name: /^Remove leg 1:/ }));
    expect(screen.getByRole('button', { name: /Send basket: 1 order/ })).toHaveAttribute(
      'aria-disabled',
      'false',
    );
  });

  it('saves a named basket in settings and loads it back', async () => {
    const { bridge, settings, modes } = await mount({ mode: 'basket' });
    modes.basket.pasteText = 'SBIN NSE BUY 3\nINFY NSE SELL 2 1500';
    modes.basket.addPasted();
    await settle();
    await fireEvent.input(screen.getByLabelText('Basket name'), { target: { value: 'Pair' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(bridge.callsTo('settings.update').at(-1)?.input).toMatchObject({
      baskets: [
        {
          name: 'Pair',
          legs: [
            { symbol: 'SBIN', quantity: 3 },
            { symbol: 'INFY', price: 1500 },
          ],
        },
      ],
    });
    expect(settings.baskets).toHaveLength(1);
    modes.basket.clear();
    await settle();
    expect(screen.queryAllByTestId('basket-leg')).toHaveLength(0);
    const chooser = screen.getByLabelText('Saved basket');
    await fireEvent.change(chooser, { target: { value: 'Pair' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Load' }));
    await settle();
    expect(screen.getAllByTestId('basket-leg')).toHaveLength(2);
  });
});
