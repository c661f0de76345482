// The option chain pane: ATM row marked, a price loads the ticket (side by column) and never sends,
// arrows move between the price cells.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { SymbolInfo } from '@contract';
import OptionChain from '../../../src-renderer/src/panes/OptionChain.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { answerChain, EXPIRY } from './option-chain-fixture.js';

afterEach(() => document.body.replaceChildren());

describe('OptionChain pane', () => {
  const CE: SymbolInfo = {
    symbol: 'NIFTY24NOV2625000CE',
    exchange: 'NFO',
    name: 'NIFTY',
    instrumentType: 'CE',
    token: '1',
    expiry: EXPIRY,
    strike: 25_000,
    lotSize: 65,
    tickSize: 0.05,
    freezeQuantity: 1800,
  };
  const PE: SymbolInfo = { ...CE, symbol: 'NIFTY24NOV2625000PE', instrumentType: 'PE' };

  async function mount() {
    const f = deskFixture({ instruments: [CE, PE] });
    answerChain(f.bridge, 24_985.35);
    render(OptionChain, { context: f.context });
    await settle(10);
    return f;
  }

  it('marks the ATM row and loads the ticket from a price, by column, never sending', async () => {
    const f = await mount();
    const grid = screen.getByRole('grid', { name: /NIFTY 24 NOV 26 option chain/ });
    const atmRows = grid.querySelectorAll('tbody tr.atm');
    expect(atmRows).toHaveLength(1);
    expect(atmRows[0]!.querySelector('th')!.textContent).toMatch(/25000\s*ATM/);
    expect(grid.querySelectorAll('tbody tr')).toHaveLength(21);

    // The call's ask: BUY at the ask.
    const ask = screen.getByRole('button', {
      name: /^NIFTY 24 NOV 25000 CE Ask .*: load the ticket to buy$/,
    });
    await fireEvent.click(ask);
    await settle();
    expect(f.ticket.instrument?.symbol).toBe('NIFTY24NOV2625000CE');
    expect(f.ticket.side).toBe('BUY');
    expect(f.ticket.priceType).toBe('LIMIT');
    expect(f.ticket.priceText).toBe(ask.textContent?.replace(/,/g, ''));

    // The put's bid: SELL at the bid.
    const bid = screen.getByRole('button', {
      name: /^NIFTY 24 NOV 25000 PE Bid .*: load the ticket to sell$/,
    });
    await fireEvent.click(bid);
    await settle();
    expect(f.ticket.instrument?.symbol).toBe('NIFTY24NOV2625000PE');
    expect(f.ticket.side).toBe('SELL');
    expect(f.ticket.priceText).toBe(bid.textContent?.replace(/,/g, ''));
    expect(screen.getByText(/Ticket: SELL NIFTY 24 NOV 25000 PE @ .* \(not sent\)/)).toBeTruthy();

    // Nothing was ever sent.
    expect(f.bridge.calls.filter((c) => c.channel.startsWith('orders.'))).toEqual([]);
  });

  it('moves between price cells with the arrows, one tab stop for the grid', async () => {
    await mount();
    const grid = screen.getByRole('grid');
    const stops = grid.querySelectorAll('button[tabindex="0"]');
    expect(stops).toHaveLength(1);
    const start = stops[0] as HTMLButtonElement;
    // The tab stop starts on the ATM row's call LTP.
    expect(start.closest('tr')?.classList.contains('atm')).toBe(true);
    start.focus();
    await fireEvent.keyDown(start, { key: 'ArrowRight' });
    expect(document.activeElement?.id).toBe(start.id.replace(/-0$/, '-1'));
    await fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    const [, row] = /chain-cell-(\d+)-1/.exec(document.activeElement!.id)!;
    expect(Number(row)).toBe(Number(/chain-cell-(\d+)-0/.exec(start.id)![1]) + 1);
    await fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement?.id).toMatch(/-5$/);
    expect(grid.querySelectorAll('button[tabindex="0"]')).toHaveLength(1);
  });

  it('says there is nothing to trade at on a cell without a quote, and leaves the ticket alone', async () => {
    const f = deskFixture({ instruments: [CE, PE] });
    const unquoted = answerChain(f.bridge, 24_985.35);
    unquoted.add('NIFTY24NOV2625000CE');
    render(OptionChain, { context: f.context });
    await settle(10);
    const ltp = screen.getByRole('button', {
      name: /^NIFTY 24 NOV 25000 CE LTP: no quote \(Symbol .* not found\)$/,
    });
    expect(ltp.querySelector('.p')?.textContent).toBe('—');
    await fireEvent.click(ltp);
    await settle();
    expect(screen.getByText('NIFTY 24 NOV 25000 CE: no ltp to trade at')).toBeTruthy();
    expect(f.ticket.instrument).toBeUndefined();
    expect(f.bridge.callsTo('market.symbol')).toEqual([]);
  });
});
