import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OrderSnapshot } from '@contract';
import Confirm from '../../../src-renderer/src/components/Confirm.svelte';
import Orders from '../../../src-renderer/src/panes/Orders.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { BOOKS, ORDER_ACTIONS } from '../../../src-renderer/src/state/context';
import { OrderActions } from '../../../src-renderer/src/state/order-actions.svelte';
import { deskContext } from '../../support/component/desk-context';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, order, ordersView, snapshot } from '../../support/component/books-fixtures';
import { installLayout } from '../../support/component/jsdom-layout';

beforeAll(() => installLayout());

const BOOK: OrderSnapshot[] = [
  order({ orderid: 'OPEN1', status: 'open', timestamp: '20-Nov-2025 09:15:01' }),
  order({ orderid: 'OPEN2', status: 'open', action: 'SELL', timestamp: '20-Nov-2025 09:15:02' }),
  order({
    orderid: 'TRIG1',
    status: 'trigger pending',
    pricetype: 'SL',
    triggerPrice: 900,
    timestamp: '20-Nov-2025 09:15:03',
  }),
  order({
    orderid: 'DONE1',
    status: 'complete',
    filledQuantity: 10,
    averagePrice: 905.3,
    timestamp: '20-Nov-2025 09:15:04',
  }),
  order({
    orderid: 'REJ1',
    status: 'rejected',
    rejectionReason: 'Insufficient funds: required 9,05,300.00',
    timestamp: '20-Nov-2025 09:15:05',
  }),
  order({ orderid: 'CAN1', status: 'cancelled', timestamp: '20-Nov-2025 09:15:06' }),
];

async function setup(book: OrderSnapshot[] = BOOK) {
  const b = new FakeBridge()
    .answer('session.snapshot', () => ({ ok: true, value: snapshot({ orders: ordersView(book) }) }))
    .answer('settings.get', () => ({ ok: false, error: { kind: 'internal', message: 'not in this test' } }))
    .answer('orders.cancelAll', () => ({
      ok: true,
      value: {
        status: 'success',
        canceled_orders: ['OPEN1', 'OPEN2', 'TRIG1'],
        failed_cancellations: [],
        message: 'ok',
      },
    }));
  const books = new BooksState(b);
  books.start();
  const confirm = new ConfirmState();
  const actions = new OrderActions(b, confirm);
  await flush();
  const context = deskContext(b, [
    [BOOKS, books],
    [ORDER_ACTIONS, actions],
  ]);
  render(Orders, { context });
  render(Confirm, { props: { confirm } });
  await flush();
  return { b, books, actions, confirm };
}

const rowIds = () =>
  [...screen.getByRole('grid', { name: 'Orders' }).querySelectorAll<HTMLElement>('[data-row-key]')].map(
    (r) => r.dataset.rowKey,
  );

describe('the Orders pane', () => {
  it('shows a count on each filter chip and the gateway statistics', async () => {
    await setup();
    const chips = within(screen.getByRole('group', { name: 'Filter orders by status' }));
    expect(chips.getByRole('button', { name: /^All/ })).toHaveTextContent('All 6');
    expect(chips.getByRole('button', { name: /^Open/ })).toHaveTextContent('Open 2');
    expect(chips.getByRole('button', { name: /^Trigger pending/ })).toHaveTextContent('Trigger pending 1');
    expect(chips.getByRole('button', { name: /^Complete/ })).toHaveTextContent('Complete 1');
    expect(chips.getByRole('button', { name: /^Rejected/ })).toHaveTextContent('Rejected 1');
    expect(chips.getByRole('button', { name: /^Cancelled/ })).toHaveTextContent('Cancelled 1');
    expect(screen.getByLabelText('Order statistics')).toHaveTextContent(
      'Buy 5 · Sell 1 · Open 2 · Complete 1 · Rejected 1',
    );
  });

  it('newest first; a filter chip shows only its orders, and the rejected row carries its reason', async () => {
    await setup();
    expect(rowIds()).toEqual(['CAN1', 'REJ1', 'DONE1', 'TRIG1', 'OPEN2', 'OPEN1']);

    await fireEvent.click(screen.getByRole('button', { name: /^Open/ }));
    expect(rowIds()).toEqual(['OPEN2', 'OPEN1']);
    expect(screen.getByRole('button', { name: /^Open/ })).toHaveAttribute('aria-pressed', 'true');

    await fireEvent.click(screen.getByRole('button', { name: /^Trigger pending/ }));
    expect(rowIds()).toEqual(['TRIG1']);

    await fireEvent.click(screen.getByRole('button', { name: /^Rejected/ }));
    expect(rowIds()).toEqual(['REJ1']);
    const row = screen
      .getByRole('grid', { name: 'Orders' })
      .querySelector<HTMLElement>('[data-row-key="REJ1"]')!;
    expect(row).toHaveTextContent('rejected');
    expect(row).toHaveTextContent('Insufficient funds: required 9,05,300.00');
  });

  it('a filter with no orders says so in words', async () => {
    await setup([order({ orderid: 'A', status: 'complete' })]);
    await fireEvent.click(screen.getByRole('button', { name: /^Rejected/ }));
    expect(screen.getByText('No rejected orders')).toBeInTheDocument();
  });

  it('cancel all asks first: keeping the orders sends nothing', async () => {
    const { b } = await setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel all (3)' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel all open orders?' });
    expect(dialog).toHaveTextContent('Cancels all 3 open and trigger-pending orders.');
    expect(b.callsTo('orders.cancelAll')).toHaveLength(0);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Keep orders' }));
    await flush();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(b.callsTo('orders.cancelAll')).toHaveLength(0);
  });

  it('cancel all sends once on yes, and Esc on the dialog is a no', async () => {
    const { b } = await setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel all (3)' }));
    await fireEvent.keyDown(await screen.findByRole('alertdialog'), { key: 'Escape' });
    await flush();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(b.callsTo('orders.cancelAll')).toHaveLength(0);

    await fireEvent.click(screen.getByRole('button', { name: 'Cancel all (3)' }));
    const yes = within(await screen.findByRole('alertdialog')).getByRole('button', {
      name: 'Cancel all orders',
    });
    await fireEvent.click(yes);
    await flush();
    expect(b.callsTo('orders.cancelAll')).toHaveLength(1);
    expect(screen.getByText('Cancel all: 3 cancelled')).toBeInTheDocument();
  });

  it('an order whose cancel went unanswered shows "reconciling" until the core settles it', async () => {
    const { b } = await setup();
    b.emit('orders.unknown', {
      seq: 11,
      profileId: 'paper',
      time: 1,
      journalId: 'j9',
      operation: 'cancelorder',
      orderid: 'OPEN1',
      message: 'no answer in 10 s',
    });
    await flush();
    const row = () =>
      screen.getByRole('grid', { name: 'Orders' }).querySelector<HTMLElement>('[data-row-key="OPEN1"]')!;
    expect(row()).toHaveTextContent('reconciling');
    b.emit('orders.reconciled', {
      seq: 12,
      profileId: 'paper',
      time: 2,
      journalId: 'j9',
      operation: 'cancelorder',
      found: false,
      orderid: 'OPEN1',
      message: 'still open',
    });
    await flush();
    expect(row()).not.toHaveTextContent('reconciling');
    expect(row()).toHaveTextContent('open');
  });

  it('5,000 orders: the chips count them all, the DOM holds only the rows on screen', async () => {
    const many = Array.from({ length: 5000 }, (_, i) =>
      order({
        orderid: `M${i}`,
        status: i % 5 === 0 ? 'rejected' : 'complete',
        timestamp: '20-Nov-2025 09:15:00',
      }),
    );
    const { b } = await setup(many);
    expect(screen.getByRole('button', { name: /^All/ })).toHaveTextContent('All 5,000');
    expect(screen.getByRole('button', { name: /^Rejected/ })).toHaveTextContent('Rejected 1,000');
    const shown = rowIds().length;
    // A 600 px viewport of 28 px rows plus virtua's buffer: tens of rows, never thousands.
    expect(shown).toBeGreaterThan(10);
    expect(shown).toBeLessThan(80);
    expect(screen.getByRole('grid', { name: 'Orders' })).toHaveAttribute('aria-rowcount', '5001');
    // A new view (one more order) replaces the book wholesale; still only a screenful rendered.
    b.emit('books.orders', {
      seq: 11,
      profileId: 'paper',
      view: ordersView([...many, order({ orderid: 'LATEST', timestamp: '20-Nov-2025 09:16:00' })]),
    });
    await flush();
    expect(rowIds()[0]).toBe('LATEST');
    expect(rowIds().length).toBeLessThan(80);
  });

  it('↑ ↓ Home End move focus between rows; one row is in the tab order', async () => {
    await setup();
    const table = screen.getByRole('grid', { name: 'Orders' });
    const row = (id: string) => table.querySelector<HTMLElement>(`[data-row-key="${id}"]`)!;
    expect([...table.querySelectorAll('[data-row-key][tabindex="0"]')]).toHaveLength(1);
    row('CAN1').focus();
    await fireEvent.keyDown(row('CAN1'), { key: 'ArrowDown' });
    await flush();
    expect(document.activeElement).toBe(row('REJ1'));
    await fireEvent.keyDown(row('REJ1'), { key: 'End' });
    await flush();
    expect(document.activeElement).toBe(row('OPEN1'));
    await fireEvent.keyDown(row('OPEN1'), { key: 'ArrowUp' });
    await flush();
    expect(document.activeElement).toBe(row('OPEN2'));
    expect(row('OPEN2')).toHaveAttribute('tabindex', '0');
    expect(row('CAN1')).toHaveAttribute('tabindex', '-1');
    await fireEvent.keyDown(row('OPEN2'), { key: 'Home' });
    await flush();
    expect(document.activeElement).toBe(row('CAN1'));
  });

  it('5,000 orders: each new view is applied and re-rendered in well under a poll interval', async () => {
    const many = (k: number) =>
      Array.from({ length: 5000 }, (_, i) =>
        order({
          orderid: `P${i}`,
          status: i % 7 === k % 7 ? 'open' : 'complete',
          timestamp: '20-Nov-2025 09:15:00',
        }),
      );
    const { b } = await setup(many(0));
    const times: number[] = [];
    for (let k = 1; k <= 15; k++) {
      const view = ordersView(many(k));
      const t0 = performance.now();
      b.emit('books.orders', { seq: 10 + k, profileId: 'paper', view });
      await flush();
      times.push(performance.now() - t0);
    }
    times.sort((x, y) => x - y);
    const median = times[Math.floor(times.length / 2)] ?? 0;
    console.log(
      `5,000-order view applied and rendered (jsdom): median ${median.toFixed(1)} ms, max ${times.at(-1)?.toFixed(1)} ms`,
    );
    // The watcher sends at most one view a second; a quadratic slip (a row-by-row proxy, a sort per
    // row) would take seconds here.
    expect(median).toBeLessThan(500);
  });
});
