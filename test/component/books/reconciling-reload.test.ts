// A reload while an order action's outcome is unknown: the session snapshot lists it, so the orders
// book and the alerts show "reconciling" at once (nothing was heard by this page) until the
// orders.reconciled after the snapshot's seq settles it.
import { render, screen } from '@testing-library/svelte';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PendingUnknownView } from '@contract';
import Alerts from '../../../src-renderer/src/panes/Alerts.svelte';
import Orders from '../../../src-renderer/src/panes/Orders.svelte';
import { AlertLog } from '../../../src-renderer/src/state/alert-log.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { ALERT_LOG, BOOKS, ORDER_ACTIONS } from '../../../src-renderer/src/state/context';
import { OrderActions } from '../../../src-renderer/src/state/order-actions.svelte';
import { deskContext } from '../../support/component/desk-context';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, order, ordersView, snapshot } from '../../support/component/books-fixtures';
import { installLayout } from '../../support/component/jsdom-layout';

beforeAll(() => installLayout());

const T0 = Date.UTC(2025, 10, 20, 4, 0, 0);
const CANCEL: PendingUnknownView = {
  profileId: 'paper',
  time: T0,
  journalId: 'j-cancel',
  operation: 'cancelorder',
  orderid: 'OPEN1',
  message: 'no answer in 10 s',
};
const PLACE: PendingUnknownView = {
  profileId: 'paper',
  time: T0 + 1000,
  journalId: 'j-place',
  operation: 'placeorder',
  message: 'gateway did not answer within 10 s',
};

/** A freshly loaded page: its first (and only) word is the snapshot, taken at seq 20. */
async function reloadedDesk() {
  const b = new FakeBridge()
    .answer('session.snapshot', () => ({
      ok: true,
      value: snapshot({
        orders: ordersView([order({ orderid: 'OPEN1', status: 'open' })]),
        unknowns: [CANCEL, PLACE],
        seq: 20,
      }),
    }))
    .answer('settings.get', () => ({ ok: false, error: { kind: 'internal', message: 'not in this test' } }));
  const books = new BooksState(b);
  books.start();
  const log = new AlertLog(b);
  log.start();
  await flush();
  const context = deskContext(b, [
    [BOOKS, books],
    [ORDER_ACTIONS, new OrderActions(b, new ConfirmState())],
    [ALERT_LOG, log],
  ]);
  render(Orders, { context });
  render(Alerts, { props: { active: true }, context });
  await flush();
  return { b, books, log };
}

const orderRow = () =>
  screen.getByRole('grid', { name: 'Orders' }).querySelector<HTMLElement>('[data-row-key="OPEN1"]')!;
const alertRows = () => screen.getAllByTestId('alert-row');

describe('reconciling after a reload', () => {
  it('the order row, the floating placement and the alerts show reconciling from the snapshot alone', async () => {
    const { books } = await reloadedDesk();
    expect(books.reconciling.map((r) => r.journalId)).toEqual(['j-place', 'j-cancel']);
    expect(orderRow()).toHaveTextContent('reconciling');
    // A placement has no order id yet: it is listed above the book with its reason.
    expect(screen.getByText(/Order placement: gateway did not answer within 10 s/)).toBeInTheDocument();
    expect(alertRows().map((r) => r.textContent)).toEqual([
      expect.stringContaining('Order placement: outcome unknown, reconciling'),
      expect.stringContaining('Order cancellation: outcome unknown, reconciling'),
    ]);
  });

  it('orders.reconciled after the snapshot settles each one; an older event changes nothing', async () => {
    const { b, books } = await reloadedDesk();
    const settle = (seq: number, u: PendingUnknownView, found: boolean, message: string) =>
      b.emit('orders.reconciled', {
        seq,
        profileId: 'paper',
        time: u.time + 5000,
        journalId: u.journalId,
        operation: u.operation,
        found,
        ...(u.orderid ? { orderid: u.orderid } : { orderid: '777' }),
        message,
      });
    // Already reflected by the snapshot (seq 20): ignored.
    settle(20, CANCEL, true, 'stale');
    await flush();
    expect(orderRow()).toHaveTextContent('reconciling');

    settle(21, CANCEL, false, 'Order OPEN1 is still open');
    await flush();
    expect(orderRow()).not.toHaveTextContent('reconciling');
    expect(books.reconciling.map((r) => r.journalId)).toEqual(['j-place']);
    settle(22, PLACE, true, 'Order 777 is in the book');
    await flush();
    expect(books.reconciling).toEqual([]);
    expect(screen.queryByText(/Order placement: gateway did not answer/)).toBeNull();
    const rows = alertRows().map((r) => r.textContent);
    expect(rows).toHaveLength(2);
    expect(rows.join(' ')).not.toMatch(/reconciling/i);
    expect(rows[0]).toContain('Order placement: took effect');
    expect(rows[1]).toContain('Order cancellation: did not take effect');
  });
});

describe('a settlement missed while the link was down', () => {
  it('is read from the journal when the link is back: the entry stops saying reconciling', async () => {
    let pending: PendingUnknownView[] = [PLACE];
    let linkCb: ((s: 'open' | 'lost') => void) | undefined;
    const b = new FakeBridge()
      .answer('session.snapshot', () => ({ ok: true, value: snapshot({ unknowns: pending, seq: 20 }) }))
      .answer('journal.query', () => ({
        ok: true,
        value: [
          {
            id: 'j-place',
            time: T0 - 15_000,
            profileId: 'paper',
            operation: 'placeorder',
            request: {},
            orderIds: ['777'],
            outcome: 'unknown',
            finishedAt: T0,
            durationMs: 15_000,
            resolution: { time: T0 + 4000, found: true, orderid: '777', message: 'order 777 was placed' },
          },
        ],
      }));
    const log = new AlertLog(b, { onLinkChange: (cb) => ((linkCb = cb), () => undefined) });
    log.start();
    await flush();
    render(Alerts, { props: { active: true }, context: new Map([[ALERT_LOG, log]]) });
    await flush();
    expect(alertRows()[0]).toHaveTextContent('Order placement: outcome unknown, reconciling');
    // The link drops; meanwhile the core settles it (the event never reaches this page).
    linkCb?.('lost');
    pending = [];
    linkCb?.('open');
    await flush();
    await flush();
    expect(b.callsTo('journal.query')).toHaveLength(1);
    expect(b.callsTo('journal.query')[0]?.input).toMatchObject({ outcome: 'unknown' });
    const rows = alertRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('Order placement: took effect');
    expect(rows[0]).toHaveTextContent('order 777 was placed');
    expect(rows[0]).not.toHaveTextContent(/reconciling/i);
  });
});
