// A position row's Add (the ticket on the same side, one lot, the row's product, nothing sent),
// Rev (asked first in exact words, then ONE market order of twice the net on the other side, and
// the position book read back; Esc sends nothing) and a closed row's realised P&L and averages.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PositionView, TradeRow } from '@contract';
import Confirm from '../../../src-renderer/src/components/Confirm.svelte';
import Positions from '../../../src-renderer/src/panes/Positions.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { CloseAllFlow } from '../../../src-renderer/src/state/close-all.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import {
  BOOKS,
  CLOSE_ALL,
  CONFIRM,
  MARKET,
  ORDER_ACTIONS,
  TICKET,
} from '../../../src-renderer/src/state/context';
import { MarketState } from '../../../src-renderer/src/state/market.svelte';
import { OrderActions } from '../../../src-renderer/src/state/order-actions.svelte';
import { TicketState } from '../../../src-renderer/src/state/ticket.svelte';
import { flush, position, snapshot } from '../../support/component/books-fixtures';
import { deskContext } from '../../support/component/desk-context';
import { installLayout } from '../../support/component/jsdom-layout';
import { FakeBridge } from '../../support/component/fake-bridge';
import { NIFTY_FUT } from '../../support/component/instruments';

beforeAll(() => installLayout());
afterEach(() => document.body.replaceChildren());

const FUT = NIFTY_FUT.symbol;
const LONG = position({ symbol: FUT, exchange: 'NFO', product: 'NRML', quantity: 130, averagePrice: 24000 });

function trade(action: 'BUY' | 'SELL', quantity: number, averagePrice: number): TradeRow {
  return {
    orderid: `T${action}${averagePrice}`,
    symbol: FUT,
    exchange: 'NFO',
    action,
    product: 'NRML',
    quantity,
    averagePrice,
    tradeValue: quantity * averagePrice,
    timestamp: '28-11-2026 10:00:00',
  };
}

interface Desk {
  bridge: FakeBridge;
  ticket: TicketState;
}

async function desk(positions: PositionView[], trades: TradeRow[] = []): Promise<Desk> {
  const b: FakeBridge = new FakeBridge()
    .answer('session.snapshot', () => ({
      ok: true,
      value: snapshot({ positions: { positions, totalMtm: 0 }, trades: { trades } }),
    }))
    .answer('market.symbol', () => ({ ok: true, value: NIFTY_FUT }))
    .answer('orders.place', () => ({ ok: true, value: { status: 'success', orderid: 'REV1' } }))
    .answer('books.positions', () => ({
      ok: true,
      value: { positions: [{ ...LONG, quantity: -130 }], totalMtm: 0 },
    }));
  const books = new BooksState(b);
  const confirm = new ConfirmState();
  const ticket = new TicketState(b);
  const context = deskContext(b, [
    [BOOKS, books],
    [CONFIRM, confirm],
    [TICKET, ticket],
    [MARKET, new MarketState(b)],
    [ORDER_ACTIONS, new OrderActions(b, confirm)],
    [CLOSE_ALL, new CloseAllFlow(b, confirm)],
  ]);
  books.start();
  render(Positions, { context });
  render(Confirm, { props: { confirm } });
  for (let i = 0; i < 6; i++) await flush();
  return { bridge: b, ticket };
}

const grid = () => screen.getByRole('grid', { name: 'Positions' });
const rowOf = (key: string) => grid().querySelector<HTMLElement>(`[data-row-key="${key}"]`)!;
// virtua keeps rows visibility-hidden until measured (jsdom never measures): buttons by their label.
const actionOf = (label: string) =>
  rowOf(`NFO:${FUT}:NRML`).querySelector<HTMLElement>(`button[aria-label^="${label}"]`)!;

describe('position row actions', () => {
  it('Add opens the ticket on the same side with one lot and the row product, and sends nothing', async () => {
    const { bridge: b, ticket } = await desk([LONG]);
    await fireEvent.click(actionOf('Add to'));
    for (let i = 0; i < 8; i++) await flush();
    expect(ticket.instrument?.symbol).toBe(FUT);
    expect(ticket.side).toBe('BUY');
    expect(ticket.quantityText).toBe('65');
    expect(ticket.product).toBe('NRML');
    expect(b.callsTo('orders.place')).toHaveLength(0);
  });

  it('Add on a short row opens the ticket on SELL', async () => {
    const { ticket } = await desk([{ ...LONG, quantity: -65 }]);
    await fireEvent.click(actionOf('Add to'));
    for (let i = 0; i < 8; i++) await flush();
    expect(ticket.side).toBe('SELL');
    expect(ticket.quantityText).toBe('65');
  });

  it('Rev says exactly what goes, then sends one order of twice the net on the other side', async () => {
    const { bridge: b } = await desk([LONG]);
    await fireEvent.click(actionOf('Reverse'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reverse position?' });
    expect(dialog.textContent).toContain('SELL 260 NIFTY');
    expect(dialog.textContent).toContain('NFO NRML MARKET: reverses +130 to -130');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Sell to reverse' }));
    for (let i = 0; i < 8; i++) await flush();
    expect(b.callsTo('orders.place')).toEqual([
      {
        channel: 'orders.place',
        input: {
          symbol: FUT,
          exchange: 'NFO',
          product: 'NRML',
          action: 'SELL',
          pricetype: 'MARKET',
          quantity: 260,
        },
      },
    ]);
    // Read back, never assumed: the notice says what the position book shows.
    expect(b.callsTo('books.positions').length).toBeGreaterThan(0);
    expect(grid().closest('.pane')!.textContent).toContain(
      'Reverse sent (order REV1); the position book shows',
    );
    expect(grid().closest('.pane')!.textContent).toContain('NRML -130');
  });

  it('the book is read back until it shows the opposite net; a book still showing the old net is said so', async () => {
    const { bridge: b } = await desk([LONG]);
    // The fill lands a moment after the answer: the first read still shows +130.
    let reads = 0;
    b.answer('books.positions', () => ({
      ok: true,
      value: { positions: [{ ...LONG, quantity: ++reads === 1 ? 130 : -130 }], totalMtm: 0 },
    }));
    await fireEvent.click(actionOf('Reverse'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reverse position?' });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Sell to reverse' }));
    await vi.waitFor(() => expect(grid().closest('.pane')!.textContent).toContain('NRML -130'), {
      timeout: 3000,
    });
    expect(reads).toBe(2);
    expect(b.callsTo('orders.place')).toHaveLength(1);

    // Never shows the target: the notice says what the book shows, not "reversed".
    b.answer('books.positions', () => ({
      ok: true,
      value: { positions: [{ ...LONG, quantity: 130 }], totalMtm: 0 },
    }));
    await fireEvent.click(actionOf('Reverse'));
    const again = await screen.findByRole('alertdialog', { name: 'Reverse position?' });
    await fireEvent.click(within(again).getByRole('button', { name: 'Sell to reverse' }));
    await vi.waitFor(() => expect(grid().closest('.pane')!.textContent).toContain('NRML +130'), {
      timeout: 3000,
    });
    expect(grid().closest('.pane')!.querySelector('.book-notice.pending')).not.toBeNull();
  });

  it('Esc on the reverse question sends nothing', async () => {
    const { bridge: b } = await desk([LONG]);
    await fireEvent.click(actionOf('Reverse'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reverse position?' });
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    for (let i = 0; i < 4; i++) await flush();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(b.callsTo('orders.place')).toHaveLength(0);
  });

  it('a closed row shows its realised P&L and its buy and sell averages, and no actions', async () => {
    const closed = { ...LONG, quantity: 0, averagePrice: 0, mtm: 0, realised: 1950.5 };
    await desk([closed], [trade('BUY', 65, 24000), trade('BUY', 65, 24001.1), trade('SELL', 130, 24015.6)]);
    const heads = within(grid())
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.trim());
    const row = rowOf(`NFO:${FUT}:NRML`);
    const cell = (label: string) => row.querySelectorAll('[role="gridcell"]')[heads.indexOf(label)]!;
    expect(cell('P&L (MTM)').textContent).toContain('+₹1,950.50');
    expect(cell('Avg').textContent).toBe('B 24,000.55 · S 24,015.60');
    expect(row.querySelector('button')).toBeNull();
  });
});
