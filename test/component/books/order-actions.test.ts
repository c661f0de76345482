import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import type { Settings } from '@contract';
import Confirm from '../../../src-renderer/src/components/Confirm.svelte';
import { dispatchRowAction } from '../../../src-renderer/src/lib/row-action';
import Orders from '../../../src-renderer/src/panes/Orders.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { BOOKS, ORDER_ACTIONS } from '../../../src-renderer/src/state/context';
import { OrderActions } from '../../../src-renderer/src/state/order-actions.svelte';
import { deskContext } from '../../support/component/desk-context';
import { FakeBridge, deferred } from '../../support/component/fake-bridge';
import { flush, order, ordersView, position, snapshot } from '../../support/component/books-fixtures';
import { installLayout } from '../../support/component/jsdom-layout';

beforeAll(() => installLayout());

const SBIN_INFO = {
  symbol: 'SBIN',
  exchange: 'NSE',
  name: 'STATE BANK OF INDIA',
  instrumentType: 'EQ',
  token: '3045',
  expiry: '',
  strike: null,
  lotSize: 1,
  tickSize: 0.05,
  freezeQuantity: null,
};

function settings(confirm: { modify: boolean; cancel: boolean }): Settings {
  return {
    confirmations: { place: true, ...confirm },
    risk: {
      maxQuantityPerOrder: 10_000,
      maxValuePerOrder: 10_00_000,
      priceBandPercent: 0,
      duplicateWindowMs: 2000,
    },
  } as Settings;
}

function bridge(confirm = { modify: false, cancel: false }) {
  return new FakeBridge()
    .answer('market.symbol', () => ({ ok: true, value: SBIN_INFO }))
    .answer('settings.get', () => ({ ok: true, value: settings(confirm) }))
    .answer('orders.modify', (i) => ({ ok: true, value: { status: 'success', orderid: i?.orderid ?? '' } }))
    .answer('orders.cancel', (i) => ({ ok: true, value: { status: 'success', orderid: i?.orderid ?? '' } }))
    .answer('orders.smart', () => ({ ok: true, value: { status: 'success', orderid: 'EXIT1' } }));
}

const OPEN = order({ orderid: 'O1', status: 'open', quantity: 10, filledQuantity: 4, price: 905.3 });

describe('modify in place', () => {
  it("checks the new price on the instrument's tick and sends nothing while it is wrong", async () => {
    const b = bridge();
    const a = new OrderActions(b, new ConfirmState());
    await a.startModify(OPEN);
    a.editing!.priceText = '905.33';
    expect(a.editIssues.map((i) => i.message)).toEqual(['Price must be a multiple of the tick 0.05']);
    expect(await a.submitModify()).toBe(false);
    expect(b.callsTo('orders.modify')).toHaveLength(0);
    expect(a.notice?.text).toBe('Price must be a multiple of the tick 0.05');
  });

  it('refuses a quantity below what already filled', async () => {
    const b = bridge();
    const a = new OrderActions(b, new ConfirmState());
    await a.startModify(OPEN);
    a.editing!.quantityText = '3';
    expect(a.editIssues).toEqual([
      { field: 'quantity', code: 'below_filled', message: 'Quantity cannot go below the 4 already filled' },
    ]);
  });

  it('sends the order with its new price once, however often Enter is pressed', async () => {
    const b = bridge();
    const slow = deferred<{ ok: true; value: { status: 'success'; orderid: string } }>();
    b.answer('orders.modify', () => slow.promise);
    const a = new OrderActions(b, new ConfirmState());
    await a.startModify(OPEN);
    a.editing!.priceText = '906.05';
    const first = a.submitModify();
    const second = a.submitModify();
    await flush();
    slow.resolve({ ok: true, value: { status: 'success', orderid: 'O1' } });
    expect([await first, await second]).toEqual([true, false]);
    expect(b.callsTo('orders.modify')).toEqual([
      {
        channel: 'orders.modify',
        input: {
          orderid: 'O1',
          exchange: 'NSE',
          symbol: 'SBIN',
          action: 'BUY',
          product: 'MIS',
          pricetype: 'LIMIT',
          quantity: 10,
          price: 906.05,
          trigger_price: 0,
          disclosed_quantity: 0,
          strategy: 'OrderDesk',
        },
      },
    ]);
    expect(a.editing).toBeUndefined();
  });

  it('asks first when the settings say so; "Keep as is" sends nothing', async () => {
    const b = bridge({ modify: true, cancel: true });
    const confirm = new ConfirmState();
    const a = new OrderActions(b, confirm);
    await a.startModify(OPEN);
    a.editing!.priceText = '906';
    const sent = a.submitModify();
    for (let i = 0; i < 10 && !confirm.request; i++) await flush();
    expect(confirm.request?.title).toBe('Modify order?');
    confirm.answer(false);
    expect(await sent).toBe(false);
    expect(b.callsTo('orders.modify')).toHaveLength(0);
  });

  it('an unanswered modify closes the form (no resend) and says it is reconciling', async () => {
    const b = bridge();
    b.answer('orders.modify', () => ({
      ok: false,
      error: { kind: 'unknown_outcome', message: 'timed out after 10 s', journalId: 'j1' },
    }));
    const a = new OrderActions(b, new ConfirmState());
    await a.startModify(OPEN);
    a.editing!.priceText = '906';
    expect(await a.submitModify()).toBe(false);
    expect(a.editing).toBeUndefined();
    expect(a.notice).toEqual({
      scope: 'orders',
      tone: 'pending',
      kind: 'unknown_outcome',
      text: 'Modify: no answer from the gateway; reconciling with the order book (timed out after 10 s)',
    });
  });

  it('M on a focused row opens the fields in the row; Enter in the price sends the modify', async () => {
    const b = bridge().answer('session.snapshot', () => ({
      ok: true,
      value: snapshot({ orders: ordersView([OPEN]) }),
    }));
    const books = new BooksState(b);
    books.start();
    const actions = new OrderActions(b, new ConfirmState());
    await flush();
    render(Orders, {
      context: deskContext(b, [
        [BOOKS, books],
        [ORDER_ACTIONS, actions],
      ]),
    });
    await flush();
    const row = screen
      .getByRole('grid', { name: 'Orders' })
      .querySelector<HTMLElement>('[data-row-key="O1"]')!;
    row.focus();
    dispatchRowAction(row, 'row.modify', '[data-hotkey-row]');
    await flush();
    const price = await screen.findByLabelText('New price');
    expect(price).toHaveValue('905.3');
    await fireEvent.input(price, { target: { value: '904.95' } });
    await fireEvent.keyDown(price, { key: 'Enter' });
    for (let i = 0; i < 10 && b.callsTo('orders.modify').length === 0; i++) await flush();
    expect(b.callsTo('orders.modify')).toHaveLength(1);
    expect((b.callsTo('orders.modify')[0]?.input as { price: number }).price).toBe(904.95);
  });
});

describe('cancel and exit', () => {
  it('C on a row cancels that order (asking first when the settings say so)', async () => {
    const b = bridge({ modify: true, cancel: true });
    const confirm = new ConfirmState();
    const a = new OrderActions(b, confirm);
    render(Confirm, { props: { confirm } });
    const done = a.cancel(OPEN);
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel order?' });
    expect(dialog).toHaveTextContent('Cancel BUY SBIN NSE 10 (order O1).');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await done).toBe(true);
    expect(b.callsTo('orders.cancel')).toEqual([
      { channel: 'orders.cancel', input: { orderid: 'O1', strategy: 'OrderDesk' } },
    ]);
  });

  it('a finished order is not cancelled, and says why', async () => {
    const b = bridge();
    const a = new OrderActions(b, new ConfirmState());
    expect(await a.cancel(order({ status: 'complete' }))).toBe(false);
    expect(b.callsTo('orders.cancel')).toHaveLength(0);
    expect(a.notice?.text).toBe('BUY SBIN NSE is complete: nothing to cancel');
  });

  it('exit sends a MARKET smart order to 0 on the opposite side, after a yes', async () => {
    const b = bridge();
    const confirm = new ConfirmState();
    const a = new OrderActions(b, confirm);
    const done = a.exitPosition(position({ symbol: 'SBIN', quantity: -25, product: 'MIS' }));
    for (let i = 0; i < 10 && !confirm.request; i++) await flush();
    expect(confirm.request?.confirmLabel).toBe('Buy to exit');
    confirm.answer(true);
    expect(await done).toBe(true);
    expect(b.callsTo('orders.smart')).toEqual([
      {
        channel: 'orders.smart',
        input: {
          symbol: 'SBIN',
          exchange: 'NSE',
          product: 'MIS',
          action: 'BUY',
          pricetype: 'MARKET',
          quantity: 25,
          position_size: 0,
        },
      },
    ]);
    expect(a.notice?.text).toBe('Exit sent: BUY 25 SBIN NSE MIS at market (order EXIT1)');
  });
});
