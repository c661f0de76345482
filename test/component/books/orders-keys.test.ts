// The orders pane says the keys in use: after a preset or a remap, its hints and aria-keyshortcuts
// follow the window's one key map instead of naming NEST's keys.
import { render, screen } from '@testing-library/svelte';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OrderSnapshot } from '@contract';
import Orders from '../../../src-renderer/src/panes/Orders.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { BOOKS, HOTKEYS, ORDER_ACTIONS } from '../../../src-renderer/src/state/context';
import { HotkeysState } from '../../../src-renderer/src/state/hotkeys.svelte';
import { OrderActions } from '../../../src-renderer/src/state/order-actions.svelte';
import { deskContext } from '../../support/component/desk-context';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, order, ordersView, snapshot } from '../../support/component/books-fixtures';
import { installLayout } from '../../support/component/jsdom-layout';

beforeAll(() => installLayout());

async function setup(book: OrderSnapshot[], keys: HotkeysState) {
  const b = new FakeBridge()
    .answer('session.snapshot', () => ({ ok: true, value: snapshot({ orders: ordersView(book) }) }))
    .answer('settings.get', () => ({ ok: false, error: { kind: 'internal', message: 'not in this test' } }));
  const books = new BooksState(b);
  books.start();
  await flush();
  const context = deskContext(b, [
    [BOOKS, books],
    [ORDER_ACTIONS, new OrderActions(b, new ConfirmState())],
    [HOTKEYS, keys],
  ]);
  render(Orders, { context });
  await flush();
}

/** A row's action button by its accessible name (the virtualised rows sit outside role queries). */
const rowButton = (name: string) => document.querySelector(`button[aria-label="${name}"]`)!;

describe('the orders pane names the keys in use', () => {
  it('the scalping preset: Cancel all says F7 and Ctrl+Shift+X; remapped M/C on the row buttons', async () => {
    const keys = new HotkeysState();
    keys.apply({ preset: 'scalping', overrides: { 'row.modify': ['Alt+M'], 'row.cancel': ['Alt+C'] } });
    await setup([order({ orderid: 'OPEN1', status: 'open' })], keys);
    expect(screen.getByRole('button', { name: /^Cancel all/ }).getAttribute('aria-keyshortcuts')).toBe(
      'F7 Control+Shift+X',
    );
    expect(rowButton('Modify order OPEN1').getAttribute('aria-keyshortcuts')).toBe('Alt+M');
    expect(rowButton('Cancel order OPEN1').getAttribute('aria-keyshortcuts')).toBe('Alt+C');
  });

  it('an empty book points to the buy and sell keys of the map (Kite: Shift+B, Shift+S)', async () => {
    const keys = new HotkeysState();
    keys.apply({ preset: 'kite', overrides: {} });
    await setup([], keys);
    expect(screen.getByText('No orders today · Shift+B to buy, Shift+S to sell')).toBeInTheDocument();
  });
});
