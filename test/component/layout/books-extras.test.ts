// Positions' Chg % (from the quote the pane watches for its open instruments) and Strategy (from the
// orders that filled), and Holdings' Sell: the ticket loaded with SELL, CNC and the holding's
// quantity, nothing sent.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HoldingsView, MarketWatchInput } from '@contract';
import App from '../../../src-renderer/src/App.svelte';
import { flush, order, ordersView, position, snapshot } from '../../support/component/books-fixtures';
import { installLayout } from '../../support/component/jsdom-layout';
import { FakeBridge } from '../../support/component/fake-bridge';
import { SBIN } from '../../support/component/instruments';

beforeAll(() => installLayout());
afterEach(() => document.body.replaceChildren());

const HOLDINGS: HoldingsView = {
  holdings: [
    {
      symbol: 'SBIN',
      exchange: 'NSE',
      product: 'CNC',
      quantity: 37,
      averagePrice: 800,
      ltp: 905.3,
      pnl: 3896.1,
      pnlPercent: 13.16,
    },
  ],
  statistics: {
    totalHoldingValue: 33496.1,
    totalInvestmentValue: 29600,
    totalPnl: 3896.1,
    totalPnlPercent: 13.16,
  },
};

async function desk(): Promise<FakeBridge> {
  const b: FakeBridge = new FakeBridge()
    .answer('session.snapshot', () => ({
      ok: true,
      value: snapshot({
        orders: ordersView([
          order({ orderid: 'F1', status: 'complete', filledQuantity: 10, strategy: 'Scalper' }),
          order({ orderid: 'F2', status: 'complete', filledQuantity: 5, strategy: 'Swing' }),
          // Same symbol, another product: not this position's.
          order({ orderid: 'F3', status: 'complete', filledQuantity: 5, product: 'CNC', strategy: 'Other' }),
          // Never filled: not a source of the position.
          order({ orderid: 'F4', status: 'open', strategy: 'Resting' }),
        ]),
        positions: { positions: [position({ quantity: 15, product: 'MIS' })], totalMtm: 53 },
      }),
    }))
    .answer('books.holdings', () => ({ ok: true, value: HOLDINGS }))
    .answer('market.symbol', () => ({ ok: true, value: SBIN }))
    .answer('market.watch', (i) => ({
      ok: true,
      value: {
        id: `w${b.callsTo('market.watch').length}`,
        mode: i!.mode,
        focus: false,
        // The desk reads only the id (and nothing here asks for anything but SBIN).
        symbols: [{ symbol: 'SBIN', exchange: 'NSE' as const }],
        rejected: [],
      },
    }))
    .answer('market.unwatch', () => ({ ok: true, value: { id: 'x', stopped: [] } }));
  Object.assign(window, { innerWidth: 1280, bridge: b });
  render(App);
  for (let i = 0; i < 6; i++) await flush();
  return b;
}

describe('the books: positions and holdings extras', () => {
  it('Positions: Chg % from the watched quote, Strategy from the orders that filled it', async () => {
    const b = await desk();
    await fireEvent.click(screen.getByRole('tab', { name: /^Positions/ }));
    for (let i = 0; i < 4; i++) await flush();
    // One quote watch for the open position's instrument.
    const watches = b.callsTo('market.watch').map((c) => c.input as MarketWatchInput);
    expect(watches).toContainEqual({ symbols: [{ symbol: 'SBIN', exchange: 'NSE' }], mode: 'quote' });
    const table = screen.getByRole('grid', { name: 'Positions' });
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.trim());
    // virtua keeps rows visibility-hidden until measured (jsdom never measures): read them by key.
    const row = table.querySelector<HTMLElement>('[data-row-key="NSE:SBIN:MIS"]')!;
    const cell = (label: string) => row.querySelectorAll('[role="gridcell"]')[heads.indexOf(label)]!;
    expect(cell('Chg %').textContent).toBe('—');
    expect(cell('Strategy').textContent?.trim()).toBe('Scalper, Swing');
    b.emit('market.quote', {
      seq: 50,
      profileId: 'paper',
      time: 1,
      symbol: 'SBIN',
      exchange: 'NSE',
      ltp: 905.3,
      change: 4.55,
      changePercent: 0.51,
      open: 900,
      high: 910,
      low: 899,
      prevClose: 900.75,
      volume: 1,
      oi: 0,
      bid: 905.25,
      ask: 905.3,
    });
    await flush();
    expect(cell('Chg %').textContent).toBe('+0.51%');
  });

  it('Holdings: Sell loads the ticket with SELL, CNC and the whole holding, and sends nothing', async () => {
    const b = await desk();
    await fireEvent.click(screen.getByRole('tab', { name: /^Holdings/ }));
    for (let i = 0; i < 4; i++) await flush();
    const holdings = screen.getByRole('grid', { name: 'Holdings' });
    await fireEvent.click(holdings.querySelector<HTMLElement>('button[aria-label^="Sell SBIN"]')!);
    for (let i = 0; i < 6; i++) await flush();
    const ticket = screen.getByRole('region', { name: 'Order ticket' });
    expect((document.getElementById('ticket-qty') as HTMLInputElement).value).toBe('37');
    expect(document.activeElement?.id).toBe('ticket-qty');
    expect(within(ticket).getByRole('button', { name: /^Sell 37 SBIN/ })).toBeInTheDocument();
    expect(within(ticket).getByRole('radio', { name: 'CNC' })).toBeChecked();
    expect(b.callsTo('orders.place')).toHaveLength(0);
  });
});
