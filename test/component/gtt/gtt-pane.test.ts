// The GTT tab: rows with trigger prices, legs, status and last price (en-IN figures, BUY/SELL by colour
// and word), modify in a form under the table and cancel per row, each asking first.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GttRecord } from '@contract';
import Confirm from '../../../src-renderer/src/components/Confirm.svelte';
import Gtt from '../../../src-renderer/src/panes/Gtt.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { GTT } from '../../../src-renderer/src/state/context';
import { GttState } from '../../../src-renderer/src/state/gtt.svelte';
import { deskContext } from '../../support/component/desk-context';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush } from '../../support/component/books-fixtures';
import { installLayout } from '../../support/component/jsdom-layout';

beforeAll(() => installLayout());
afterEach(() => document.body.replaceChildren());

const leg = (action: string, price: number, quantity = 1500) => ({
  action,
  price,
  quantity,
  pricetype: 'LIMIT',
  product: 'CNC',
  triggered_order_id: null,
});
const ROWS: GttRecord[] = [
  {
    trigger_id: 'GTT-261120-0000000a',
    trigger_type: 'single',
    status: 'active',
    symbol: 'SBIN',
    exchange: 'NSE',
    trigger_prices: [858.7],
    last_price: 954.1,
    legs: [leg('BUY', 858.7)],
    created_at: '2026-11-20T09:44:03.485996',
    updated_at: '2026-11-20T09:44:03.485996',
    expires_at: '2027-11-20T09:44:03.485996',
    strategy: 'desk',
  },
  {
    trigger_id: 'GTT-261120-0000000b',
    trigger_type: 'two-leg',
    status: 'active',
    symbol: 'RELIANCE',
    exchange: 'NSE',
    trigger_prices: [1200, 1450.5],
    last_price: 1312.25,
    legs: [leg('SELL', 1195, 2), leg('SELL', 1455, 2)],
    created_at: '2026-11-20T10:01:00.000000',
    updated_at: '2026-11-20T10:01:00.000000',
    expires_at: '2027-11-20T10:01:00.000000',
    strategy: 'desk',
  },
];

async function setup() {
  const b = new FakeBridge()
    .answer('gtt.book', () => ({ ok: true, value: { gtts: ROWS } }))
    .answer('settings.get', () => ({ ok: false, error: { kind: 'internal', message: 'not here' } }))
    .answer('gtt.cancel', (input) => ({
      ok: true,
      value: { status: 'success', trigger_id: (input as { trigger_id: string }).trigger_id },
    }))
    .answer('gtt.modify', (input) => ({
      ok: true,
      value: { status: 'success', trigger_id: (input as { trigger_id: string }).trigger_id },
    }));
  const confirm = new ConfirmState();
  const gtt = new GttState(b, confirm);
  // The pane finds the desk's GTT state by context, as in the app.
  const context = deskContext(b, [[GTT, gtt]]);
  render(Gtt, { context });
  render(Confirm, { props: { confirm } });
  await flush();
  return { b, gtt, confirm };
}

const row = (id: string) =>
  screen.getByRole('grid', { name: 'GTT orders' }).querySelector<HTMLElement>(`[data-row-key="${id}"]`)!;
/** A row's action button (the row's cells are found by their labels, as the keyboard reaches them). */
const button = (label: string) => document.querySelector<HTMLElement>(`button[aria-label="${label}"]`)!;
const cells = (el: Element) =>
  [...el.querySelectorAll('[role="gridcell"]')].map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim());

describe('the GTT pane', () => {
  it('lists GTTs in the order the core gives with triggers, limits, quantity and last price in en-IN figures', async () => {
    await setup();
    const keys = [
      ...screen.getByRole('grid', { name: 'GTT orders' }).querySelectorAll<HTMLElement>('[data-row-key]'),
    ].map((r) => r.dataset.rowKey);
    expect(keys).toEqual(['GTT-261120-0000000a', 'GTT-261120-0000000b']);
    const oco = cells(row('GTT-261120-0000000b'));
    expect(oco.slice(1, 10)).toEqual([
      'SELL',
      'RELIANCE NSE',
      'OCO',
      'CNC',
      '2',
      '1,200.00 / 1,450.50',
      '1,195.00 / 1,455.00',
      '1,312.25',
      'active',
    ]);
    expect(row('GTT-261120-0000000b').querySelector('.book-side')).toHaveClass('sell');
    expect(cells(row('GTT-261120-0000000a'))[5]).toBe('1,500');
  });

  it('cancel asks first and sends nothing on "Keep GTT"; yes sends one cancel', async () => {
    const { b } = await setup();
    await fireEvent.click(button('Cancel GTT GTT-261120-0000000b'));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Cancel OCO GTT SELL 2 RELIANCE NSE @ 1,200.00 / 1,450.50');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Keep GTT' }));
    await flush();
    expect(b.callsTo('gtt.cancel')).toHaveLength(0);
    await fireEvent.click(button('Cancel GTT GTT-261120-0000000b'));
    await fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel GTT' }),
    );
    await flush();
    expect(b.callsTo('gtt.cancel')).toMatchObject([
      { input: { trigger_id: 'GTT-261120-0000000b', strategy: 'desk' } },
    ]);
    expect(screen.getByTestId('gtt-notice')).toHaveTextContent('Cancelled: GTT GTT-261120-0000000b');
  });

  it('modify opens a form with the row’s values, says what is wrong in words, and sends the change', async () => {
    const { b } = await setup();
    await fireEvent.click(button('Modify GTT GTT-261120-0000000a'));
    const form = screen.getByRole('form', { name: 'Modify GTT GTT-261120-0000000a' });
    const trigger = within(form).getByLabelText('Trigger');
    expect(trigger).toHaveValue('858.70');
    await fireEvent.input(trigger, { target: { value: '' } });
    expect(within(form).getByRole('alert')).toHaveTextContent('Enter a trigger price above 0');
    await fireEvent.input(trigger, { target: { value: '850' } });
    await fireEvent.keyDown(trigger, { key: 'Enter' });
    await fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Modify GTT' }),
    );
    await flush();
    expect(b.callsTo('gtt.modify')[0]?.input).toMatchObject({
      trigger_id: 'GTT-261120-0000000a',
      trigger_type: 'SINGLE',
      action: 'BUY',
      quantity: 1500,
      price: 858.7,
      // The form showed 858.70: sent as the number it is.
      triggerprice_sl: 850,
    });
  });
});
