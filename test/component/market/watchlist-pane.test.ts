// The watchlist pane: tabs from settings, quotes kept live by one quote watch on the shown tab, add
// from search, remove, Alt+↑/↓ reorder (saved), B/S on a focused row opening the ticket, the rows
// a grid with one roving tab stop.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MarketQuoteEvent, SymbolRecord } from '@contract';
import Watchlist from '../../../src-renderer/src/panes/Watchlist.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { SBIN } from '../../support/component/instruments';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

let seq = 1;
function quote(
  symbol: string,
  exchange: string,
  ltp: number,
  change: number,
): MarketQuoteEvent & { seq: number } {
  return {
    profileId: 'paper',
    time: 1,
    symbol,
    exchange,
    ltp,
    change,
    changePercent: Number(((change / (ltp - change)) * 100).toFixed(2)),
    open: ltp,
    high: ltp,
    low: ltp,
    prevClose: ltp - change,
    volume: 1,
    oi: 0,
    bid: ltp,
    ask: ltp,
    seq: ++seq,
  };
}

/** List 1 as these tests read it: four rows, whatever the first start's default holds. */
const FOUR = [
  { symbol: 'NIFTY', exchange: 'NSE_INDEX' as const },
  { symbol: 'SBIN', exchange: 'NSE' as const },
  { symbol: 'RELIANCE', exchange: 'NSE' as const },
  { symbol: 'INFY', exchange: 'NSE' as const },
];

async function mountList() {
  const f = deskFixture({ instruments: [SBIN] });
  f.settings.watchlists[0] = { name: '1', items: FOUR };
  render(Watchlist, { context: f.context });
  await settle();
  return f;
}

const rowNames = () =>
  Array.from(document.querySelectorAll('tr[data-instrument]'), (r) => r.getAttribute('data-instrument'));
const row = (key: string) => document.querySelector(`tr[data-instrument="${key}"]`) as HTMLElement;

describe('watchlist pane', () => {
  it('shows list 1 from settings, live through one quote watch', async () => {
    const { bridge } = await mountList();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['1', '2', '3', '4', '5']);
    expect(rowNames()).toEqual(['NSE_INDEX:NIFTY', 'NSE:SBIN', 'NSE:RELIANCE', 'NSE:INFY']);
    const watches = bridge.callsTo('market.watch');
    expect(watches).toHaveLength(1);
    expect(watches[0]?.input).toMatchObject({ mode: 'quote' });
    expect((watches[0]?.input as { symbols: unknown[] }).symbols).toHaveLength(4);
    bridge.emit('market.quote', quote('SBIN', 'NSE', 905.3, 4.55));
    await settle();
    const text = (el: Element | null) => el?.textContent?.replace(/\s+/g, ' ').trim();
    // Change over % change, then the LTP.
    expect(Array.from(row('NSE:SBIN').querySelectorAll('td.chg span'), text)).toEqual(['+4.55', '+0.51%']);
    expect(text(row('NSE:SBIN').querySelector('td.ltp'))).toBe('905.30');
  });

  it('switching tab follows the other list and drops the old watch', async () => {
    const { bridge, market } = await mountList();
    market.watchlists.lists = market.watchlists.lists.map((l, i) =>
      i === 1 ? { ...l, items: [{ symbol: 'TCS', exchange: 'NSE' as const }] } : l,
    );
    await fireEvent.click(screen.getByRole('tab', { name: '2' }));
    await settle();
    expect(rowNames()).toEqual(['NSE:TCS']);
    expect(bridge.callsTo('market.watch').at(-1)?.input).toEqual({
      symbols: [{ symbol: 'TCS', exchange: 'NSE' }],
      mode: 'quote',
    });
    expect(bridge.callsTo('market.unwatch').map((c) => c.input)).toEqual([{ id: 'w1' }]);
  });

  it('Alt+↓ moves the focused row down, keeps focus on it and saves the order', async () => {
    const { bridge, settings } = await mountList();
    row('NSE:SBIN').focus();
    await fireEvent.keyDown(row('NSE:SBIN'), { key: 'ArrowDown', altKey: true });
    await settle();
    expect(rowNames()).toEqual(['NSE_INDEX:NIFTY', 'NSE:RELIANCE', 'NSE:SBIN', 'NSE:INFY']);
    expect(document.activeElement).toBe(row('NSE:SBIN'));
    expect(bridge.callsTo('settings.update')).toHaveLength(1);
    expect(settings.watchlists[0]?.items.map((i) => i.symbol)).toEqual(['NIFTY', 'RELIANCE', 'SBIN', 'INFY']);
    // A reorder is the same subscription: no new watch.
    expect(bridge.callsTo('market.watch')).toHaveLength(1);
    // At the top, Alt+↑ says so and changes nothing.
    row('NSE_INDEX:NIFTY').focus();
    await fireEvent.keyDown(row('NSE_INDEX:NIFTY'), { key: 'ArrowUp', altKey: true });
    expect(screen.getByRole('status')).toHaveTextContent('Already first');
    expect(bridge.callsTo('settings.update')).toHaveLength(1);
  });

  it('the rows are a grid with one tab stop that follows focus; ↓, End and Home move it', async () => {
    await mountList();
    expect(screen.getByRole('grid', { name: '1' })).toBeInTheDocument();
    const tabStops = () => rowNames().filter((k) => row(k ?? '').tabIndex === 0);
    expect(tabStops()).toEqual(['NSE_INDEX:NIFTY']);
    row('NSE_INDEX:NIFTY').focus();
    await fireEvent.keyDown(row('NSE_INDEX:NIFTY'), { key: 'ArrowDown' });
    await settle();
    expect(document.activeElement).toBe(row('NSE:SBIN'));
    expect(tabStops()).toEqual(['NSE:SBIN']);
    await fireEvent.keyDown(row('NSE:SBIN'), { key: 'End' });
    await settle();
    expect(document.activeElement).toBe(row('NSE:INFY'));
    await fireEvent.keyDown(row('NSE:INFY'), { key: 'Home' });
    await settle();
    expect(document.activeElement).toBe(row('NSE_INDEX:NIFTY'));
    expect(tabStops()).toEqual(['NSE_INDEX:NIFTY']);
  });

  it('S on a focused row opens a SELL ticket for it and the key goes no further', async () => {
    const { ticket } = await mountList();
    row('NSE:SBIN').focus();
    const notPrevented = await fireEvent.keyDown(row('NSE:SBIN'), { key: 's' });
    await settle();
    expect(notPrevented).toBe(false);
    expect(ticket.side).toBe('SELL');
    expect(ticket.instrument?.symbol).toBe('SBIN');
  });

  it('Delete removes the focused row and saves', async () => {
    const { settings } = await mountList();
    row('NSE:RELIANCE').focus();
    await fireEvent.keyDown(row('NSE:RELIANCE'), { key: 'Delete' });
    await settle();
    expect(rowNames()).toEqual(['NSE_INDEX:NIFTY', 'NSE:SBIN', 'NSE:INFY']);
    expect(settings.watchlists[0]?.items.map((i) => i.symbol)).toEqual(['NIFTY', 'SBIN', 'INFY']);
  });

  it('adds from search, refuses a second copy in words, and watches the new row', async () => {
    const { bridge } = await mountList();
    const tcs: SymbolRecord = {
      symbol: 'TCS',
      brsymbol: 'TCS-EQ',
      name: 'TATA CONSULTANCY',
      exchange: 'NSE',
      brexchange: 'NSE',
      token: '2',
      expiry: '',
      strike: -0.01,
      lotsize: 1,
      instrumenttype: '',
      tick_size: 0.1,
    };
    bridge.answer('market.search', () => ({
      ok: true,
      value: { status: 'success', message: '', data: [tcs] },
    }));
    const input = screen.getByRole('combobox', {
      name: 'Add an instrument to this watchlist',
    }) as HTMLInputElement;
    input.value = 'tcs';
    await fireEvent.input(input);
    await screen.findByRole('option', { name: /TCS/ });
    await fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(rowNames()).toContain('NSE:TCS');
    expect(
      (bridge.callsTo('market.watch').at(-1)?.input as { symbols: { symbol: string }[] }).symbols.map(
        (s) => s.symbol,
      ),
    ).toContain('TCS');
    // The same again is refused, with the reason.
    input.value = 'tcs';
    await fireEvent.input(input);
    await screen.findByRole('option', { name: /TCS/ });
    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByRole('status')).toHaveTextContent('TCS (NSE) is already on this list');
  });

  it('a refused save puts back what settings hold and says why', async () => {
    const { bridge } = await mountList();
    bridge.answer('settings.update', () => ({ ok: false, error: { kind: 'io', message: 'disk full' } }));
    row('NSE:INFY').focus();
    await fireEvent.keyDown(row('NSE:INFY'), { key: 'Delete' });
    await settle();
    expect(rowNames()).toEqual(['NSE_INDEX:NIFTY', 'NSE:SBIN', 'NSE:RELIANCE', 'NSE:INFY']);
    expect(screen.getByRole('status')).toHaveTextContent('The watchlist change was not saved: disk full');
  });
});
