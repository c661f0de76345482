import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { beforeAll, describe, expect, it } from 'vitest';
import App from '../../../src-renderer/src/App.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, order, ordersView, position, snapshot } from '../../support/component/books-fixtures';
import { installLayout } from '../../support/component/jsdom-layout';

beforeAll(() => installLayout());

async function setup() {
  const b = new FakeBridge()
    .answer('session.snapshot', () => ({
      ok: true,
      value: snapshot({
        orders: ordersView([
          order({ orderid: 'W1', status: 'open' }),
          order({ orderid: 'W2', status: 'open' }),
        ]),
        positions: { positions: [position()], totalMtm: 53 },
      }),
    }))
    .answer('orders.cancelAll', () => ({
      ok: true,
      value: { status: 'success', canceled_orders: ['W1', 'W2'], failed_cancellations: [], message: 'ok' },
    }));
  Object.assign(window, { bridge: b });
  render(App);
  for (let i = 0; i < 5; i++) await flush();
  return b;
}

describe('the desk (App): keys and shell commands', () => {
  it("the tray's cancel-all asks in the window and cancels nothing until yes", async () => {
    const b = await setup();
    b.emit('shell.command', { command: 'confirm-cancel-all' });
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel all open orders?' });
    expect(b.callsTo('orders.cancelAll')).toHaveLength(0);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel all orders' }));
    await flush();
    expect(b.callsTo('orders.cancelAll')).toHaveLength(1);
  });

  it('Ctrl+Shift+X asks too; the desk keys (F3, F8) do nothing while the question is open', async () => {
    const b = await setup();
    await fireEvent.keyDown(window, { key: 'F8' });
    expect(screen.getByRole('tab', { name: 'Trades' })).toHaveAttribute('aria-selected', 'true');
    await fireEvent.keyDown(window, { key: 'X', ctrlKey: true, shiftKey: true });
    const dialog = await screen.findByRole('alertdialog');
    // The question brings the orders forward.
    expect(screen.getByRole('tab', { name: /^Orders/ })).toHaveAttribute('aria-selected', 'true');
    await fireEvent.keyDown(window, { key: 'F8' });
    expect(screen.getByRole('tab', { name: /^Orders/ })).toHaveAttribute('aria-selected', 'true');
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    await flush();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(b.callsTo('orders.cancelAll')).toHaveLength(0);
  });

  it("Alt+F6 and the tray's show-positions bring the positions forward", async () => {
    const b = await setup();
    await fireEvent.keyDown(window, { key: 'F6', altKey: true });
    expect(screen.getByRole('tab', { name: /^Positions/ })).toHaveAttribute('aria-selected', 'true');
    await fireEvent.keyDown(window, { key: 'F3' });
    expect(screen.getByRole('tab', { name: /^Orders/ })).toHaveAttribute('aria-selected', 'true');
    b.emit('shell.command', { command: 'show-positions' });
    await flush();
    expect(screen.getByRole('tab', { name: /^Positions/ })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('grid', { name: 'Positions' })).toHaveTextContent('SBIN');
  });

  it('a notification click (show-order) selects the order and reads its status', async () => {
    const b = await setup();
    b.answer('orders.status', (i) => ({
      ok: true,
      value: order({ orderid: i?.orderid ?? '', status: 'open', symbol: 'SBIN' }),
    }));
    await fireEvent.keyDown(window, { key: 'F3' });
    // Filtered to completed orders: the order asked for is hidden until the filter goes back to all.
    await fireEvent.click(screen.getByRole('button', { name: /^Complete/ }));
    b.emit('shell.command', { command: 'show-order', orderid: 'W2' });
    for (let i = 0; i < 5; i++) await flush();
    expect(screen.getByRole('tab', { name: /^Orders/ })).toHaveAttribute('aria-selected', 'true');
    expect(b.callsTo('orders.status').map((c) => c.input)).toEqual([
      { orderid: 'W2', strategy: 'OrderDesk' },
    ]);
    expect(screen.getByRole('complementary', { name: 'Order W2 status' })).toHaveTextContent(
      'Order ID W2Status open',
    );
    expect(screen.getByRole('button', { name: /^All/ })).toHaveAttribute('aria-pressed', 'true');
    expect(document.activeElement?.getAttribute('data-row-key')).toBe('W2');
  });

  it('while the gateway is unreachable the books say they show the last values', async () => {
    const b = await setup();
    expect(screen.queryByText('Last values · not live')).not.toBeInTheDocument();
    b.emit('session.connection', { seq: 11, profileId: 'paper', time: 1, state: 'disconnected' });
    await flush();
    expect(screen.getByText('Last values · not live')).toBeInTheDocument();
    expect(screen.getByRole('grid', { name: 'Orders' })).toHaveTextContent('SBIN');
    b.emit('session.connection', { seq: 12, profileId: 'paper', time: 2, state: 'connected' });
    await flush();
    expect(screen.queryByText('Last values · not live')).not.toBeInTheDocument();
  });
});
