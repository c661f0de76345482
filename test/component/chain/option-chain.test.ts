// The option chain: strikes of one underlying and expiry (other underlyings and expiries left out),
// the at-the-money strike (nearest the spot, else where call and put meet), the window either side of
// it, quotes from multiquotes with a contract the gateway could not quote kept with its reason, live
// quotes from market.quote events; and the pane: ATM row marked, a price loads the ticket (side by
// column) and never sends, arrows move between the price cells.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcResult, MultiQuotesResponse, QuoteData, SymbolInfo, SymbolRecord } from '@contract';
import {
  atmStrike,
  chainKey,
  chainRows,
  chainStrikes,
  expiryOf,
  parityAtm,
  quotesFromMulti,
  strikeWindow,
  type ChainQuote,
} from '../../../src-renderer/src/lib/option-chain';
import OptionChain from '../../../src-renderer/src/panes/OptionChain.svelte';
import { OptionChainState } from '../../../src-renderer/src/state/option-chain.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { FakeBridge, deferred } from '../../support/component/fake-bridge';

afterEach(() => document.body.replaceChildren());

const EXPIRY = '24-NOV-26';
const STRIKES = Array.from({ length: 31 }, (_, i) => 24_250 + i * 50); // 24250 … 25750

function record(symbol: string, exchange = 'NFO'): SymbolRecord {
  return {
    symbol,
    brsymbol: symbol,
    name: 'NIFTY',
    exchange,
    brexchange: exchange,
    token: symbol,
    expiry: EXPIRY,
    strike: 0,
    lotsize: 65,
    instrumenttype: 'OPTIDX',
    tick_size: 0.05,
  };
}

function listing(): SymbolRecord[] {
  return [
    record('NIFTY24NOV26FUT'),
    ...STRIKES.flatMap((k) => [record(`NIFTY24NOV26${k}CE`), record(`NIFTY24NOV26${k}PE`)]),
    // The search matches these too: another underlying and another expiry.
    record('BANKNIFTY24NOV2652000CE'),
    record('NIFTY01DEC2625000CE'),
  ];
}

function quote(ltp: number, over: Partial<QuoteData> = {}): QuoteData {
  return {
    ltp,
    bid: ltp - 0.05,
    ask: ltp + 0.05,
    open: ltp,
    high: ltp,
    low: ltp,
    prev_close: ltp,
    volume: 100,
    oi: 5000,
    ...over,
  };
}

/** A made-up option price: intrinsic value plus time value, so call and put meet near the spot. */
function optionPrice(strike: number, type: 'CE' | 'PE', spot: number): number {
  const intrinsic = Math.max(0, type === 'CE' ? spot - strike : strike - spot);
  return Math.round((intrinsic + 80 - Math.abs(spot - strike) / 20) * 20) / 20;
}

interface ChainFake {
  bridge: FakeBridge;
  /** Contracts multiquotes answers with an error. */
  unquoted: Set<string>;
}

function answerChain(bridge: FakeBridge, spot: number | undefined): ChainFake['unquoted'] {
  const unquoted = new Set<string>();
  bridge
    .answer('market.expiry', () => ({
      ok: true,
      value: { status: 'success', message: '', data: [EXPIRY, '01-DEC-26'] },
    }))
    .answer('market.search', (input) => ({
      ok: true,
      value: {
        status: 'success',
        message: '',
        data: listing().filter((r) => r.symbol.includes((input?.query ?? '').toUpperCase())),
      },
    }))
    .answer('market.quotes', (input) =>
      spot !== undefined && input?.exchange === 'NSE_INDEX'
        ? { ok: true, value: { status: 'success', data: quote(spot) } }
        : { ok: false, error: { kind: 'not_found', message: `no ${input?.exchange} quote` } },
    )
    .answer('market.multiquotes', (input) => {
      const results: MultiQuotesResponse['results'] = (input?.symbols ?? []).map((s) => {
        const m = /^NIFTY24NOV26(\d+)(CE|PE)$/.exec(s.symbol);
        if (s.exchange === 'NSE_INDEX' && spot !== undefined)
          return { symbol: s.symbol, exchange: s.exchange, data: quote(spot, { prev_close: spot - 100 }) };
        if (!m || unquoted.has(s.symbol))
          return { symbol: s.symbol, exchange: s.exchange, error: `Symbol '${s.symbol}' not found` };
        const ltp = optionPrice(Number(m[1]), m[2] as 'CE' | 'PE', spot ?? 24_985);
        return { symbol: s.symbol, exchange: s.exchange, data: quote(ltp, { prev_close: ltp * 2 }) };
      });
      return { ok: true, value: { status: 'success', results } };
    });
  return unquoted;
}

describe('chain logic', () => {
  const strikes = chainStrikes(listing(), 'NIFTY', EXPIRY);

  it('keeps the underlying’s strikes of the expiry, ascending, with the call and put of each', () => {
    expect(strikes.map((s) => s.strike)).toEqual(STRIKES);
    expect(strikes[0]!.CE?.symbol).toBe('NIFTY24NOV2624250CE');
    expect(strikes[0]!.PE?.symbol).toBe('NIFTY24NOV2624250PE');
    expect(strikes.some((s) => s.CE?.symbol.startsWith('BANKNIFTY'))).toBe(false);
    // The expiry may be given as market.expiry lists it or as the symbol writes it.
    expect(chainStrikes(listing(), 'NIFTY', '24NOV26')).toHaveLength(31);
    expect(chainStrikes(listing(), 'NIFTY', '01-DEC-26').map((s) => s.strike)).toEqual([25_000]);
  });

  it('picks the strike nearest the spot, the lower one on a tie, none without a spot', () => {
    expect(atmStrike(strikes, 24_985.35)).toBe(25_000);
    expect(atmStrike(strikes, 24_974.95)).toBe(24_950);
    expect(atmStrike(strikes, 24_975)).toBe(24_950);
    expect(atmStrike(strikes, 10)).toBe(24_250);
    expect(atmStrike(strikes, undefined)).toBeUndefined();
    expect(atmStrike([], 25_000)).toBeUndefined();
  });

  it('without a spot, puts the money where call and put trade closest', () => {
    const quotes = new Map<string, ChainQuote>();
    for (const s of strikes)
      for (const t of ['CE', 'PE'] as const) {
        const c = s[t]!;
        quotes.set(chainKey(c), {
          ltp: optionPrice(s.strike, t, 25_110),
          change: 0,
          changePercent: 0,
          bid: 0,
          ask: 0,
          volume: 0,
          seq: 0,
        });
      }
    expect(parityAtm(strikes, quotes)).toBe(25_100);
    expect(parityAtm(strikes, new Map())).toBeUndefined();
  });

  it('shows N strikes either side of the money, fewer at the ends of the list', () => {
    const w = strikeWindow(strikes, 25_000, 5);
    expect(w.map((s) => s.strike)).toEqual([
      24_750, 24_800, 24_850, 24_900, 24_950, 25_000, 25_050, 25_100, 25_150, 25_200, 25_250,
    ]);
    expect(strikeWindow(strikes, 24_300, 5).map((s) => s.strike)).toEqual(STRIKES.slice(0, 7));
    expect(strikeWindow(strikes, 25_750, 2).map((s) => s.strike)).toEqual([25_650, 25_700, 25_750]);
    // No centre yet: around the middle strike.
    expect(strikeWindow(strikes, undefined, 1).map((s) => s.strike)).toEqual([24_950, 25_000, 25_050]);
    expect(strikeWindow([], 25_000, 5)).toEqual([]);
  });

  it('keeps a contract the gateway could not quote, with its reason, and marks ITM sides from the spot', () => {
    const { quotes, missing } = quotesFromMulti([
      { symbol: 'NIFTY24NOV2625000CE', exchange: 'NFO', data: quote(120, { prev_close: 100, oi: 7_03_235 }) },
      { symbol: 'NIFTY24NOV2625000PE', exchange: 'NFO', error: "Symbol 'NIFTY24NOV2625000PE' not found" },
    ]);
    expect(quotes.get('NFO:NIFTY24NOV2625000CE')).toMatchObject({
      ltp: 120,
      change: 20,
      changePercent: 20,
      oi: 703235,
    });
    expect(missing.get('NFO:NIFTY24NOV2625000PE')).toMatch(/not found/);
    const rows = chainRows(strikeWindow(strikes, 25_000, 1), quotes, missing, 25_000, 25_010);
    const atmRow = rows[1]!;
    expect(atmRow.atm).toBe(true);
    expect(rows.filter((r) => r.atm)).toHaveLength(1);
    expect(atmRow.CE?.quote?.ltp).toBe(120);
    expect(atmRow.PE?.quote).toBeUndefined();
    expect(atmRow.PE?.missing).toMatch(/not found/);
    // Spot 25,010: the 25,000 call is in the money, its put is not; 25,050's put is.
    expect(atmRow.CE?.itm).toBe(true);
    expect(atmRow.PE?.itm).toBe(false);
    expect(rows[2]!.PE?.itm).toBe(true);
  });

  it('reads a derivative’s expiry as market.expiry lists it', () => {
    expect(expiryOf('NIFTY24NOV2625000CE')).toBe('24-NOV-26');
    expect(expiryOf('SBIN')).toBeUndefined();
  });
});

describe('OptionChainState', () => {
  it('loads expiries, strikes around the index spot and their quotes; events update them', async () => {
    const bridge = new FakeBridge();
    const unquoted = answerChain(bridge, 24_985.35);
    unquoted.add('NIFTY24NOV2625050PE');
    const chain = new OptionChainState(bridge);
    const stop = chain.listen();
    chain.setEach(5);
    await chain.load('NIFTY', 'NFO');

    expect(chain.picker.expiries).toEqual([EXPIRY, '01-DEC-26']);
    expect(chain.spotRef).toEqual({ symbol: 'NIFTY', exchange: 'NSE_INDEX' });
    expect(chain.spot).toBe(24_985.35);
    expect(chain.atm).toBe(25_000);
    expect(chain.rows.map((r) => r.strike)).toEqual(STRIKES.slice(10, 21));
    expect(chain.rows.filter((r) => r.atm).map((r) => r.strike)).toEqual([25_000]);
    // One multiquotes for the window's 22 contracts and the spot candidates.
    const mq = bridge.callsTo('market.multiquotes');
    expect(mq).toHaveLength(1);
    expect((mq[0]!.input as { symbols: unknown[] }).symbols).toHaveLength(2 + 22);
    const row = chain.rows.find((r) => r.strike === 25_050)!;
    expect(row.CE?.quote?.ltp).toBeGreaterThan(0);
    expect(row.PE?.quote).toBeUndefined();
    expect(row.PE?.missing).toMatch(/not found/);
    // The watch input: the spot and the shown contracts, quote mode.
    expect(chain.watchInput?.mode).toBe('quote');
    expect(chain.watchInput?.symbols).toHaveLength(23);

    // A quote event for a shown contract lands (and clears its missing reason); an older one and
    // another instrument's are ignored.
    const ev = {
      profileId: 'paper',
      time: 1,
      symbol: 'NIFTY24NOV2625050PE',
      exchange: 'NFO',
      ltp: 77.5,
      change: -2.5,
      changePercent: -3.13,
      open: 0,
      high: 0,
      low: 0,
      prevClose: 80,
      volume: 10,
      oi: 99,
      bid: 77.45,
      ask: 77.55,
    };
    bridge.emit('market.quote', { ...ev, seq: 20 });
    bridge.emit('market.quote', { ...ev, ltp: 1, seq: 19 });
    bridge.emit('market.quote', { ...ev, symbol: 'SBIN', exchange: 'NSE', seq: 21 });
    const after = chain.rows.find((r) => r.strike === 25_050)!;
    expect(after.PE?.quote?.ltp).toBe(77.5);
    expect(after.PE?.missing).toBeUndefined();
    expect(chain.quotes.has('NSE:SBIN')).toBe(false);

    // The spot moves past the window: the ATM follows and the window re-centres on it.
    bridge.emit('market.quote', { ...ev, symbol: 'NIFTY', exchange: 'NSE_INDEX', ltp: 25_512, seq: 22 });
    expect(chain.atm).toBe(25_500);
    expect(chain.rows.map((r) => r.strike)).toEqual(STRIKES.slice(20, 31));
    stop();
  });

  it('another expiry lists its own strikes and quotes them', async () => {
    const bridge = new FakeBridge();
    answerChain(bridge, 24_985);
    const chain = new OptionChainState(bridge);
    await chain.load('NIFTY', 'NFO');
    await chain.chooseExpiry('01-DEC-26');
    expect(chain.picker.expiry).toBe('01-DEC-26');
    expect(chain.rows.map((r) => [r.strike, r.atm])).toEqual([[25_000, true]]);
    const last = bridge.callsTo('market.multiquotes').at(-1)!.input as { symbols: { symbol: string }[] };
    expect(last.symbols.map((s) => s.symbol)).toContain('NIFTY01DEC2625000CE');
  });

  it('without a spot quote, centres on the strike where call and put meet', async () => {
    const bridge = new FakeBridge();
    answerChain(bridge, undefined);
    const chain = new OptionChainState(bridge);
    chain.setEach(20);
    await chain.load('NIFTY', 'NFO');
    expect(chain.spot).toBeUndefined();
    // optionPrice's default spot is 24,985: the call and put meet at 25,000.
    expect(chain.atm).toBe(25_000);
  });

  it('watches nothing while loading, and a load superseded by one that finds nothing is not left loading', async () => {
    const bridge = new FakeBridge();
    answerChain(bridge, 24_985);
    const held = deferred<IpcResult<MultiQuotesResponse>>();
    bridge.answer('market.multiquotes', () => held.promise);
    const chain = new OptionChainState(bridge);
    const first = chain.load('NIFTY', 'NFO');
    await settle();
    expect(chain.quoting).toBe(true);
    expect(chain.rows).toHaveLength(21);
    expect(chain.watchInput).toBeUndefined();

    bridge.answer('market.expiry', () => ({ ok: true, value: { status: 'success', message: '', data: [] } }));
    await chain.load('XYZ', 'NFO');
    expect(chain.picker.message).toBe('No options of XYZ on NFO');
    expect(chain.quoting).toBe(false);
    held.resolve({ ok: true, value: { status: 'success', results: [] } });
    await first;
    expect(chain.quoting).toBe(false);
    expect(chain.rows).toEqual([]);
  });

  it('says why when the quotes cannot be read, and keeps the rows', async () => {
    const bridge = new FakeBridge();
    answerChain(bridge, 24_985);
    bridge.answer('market.multiquotes', () => ({
      ok: false,
      error: { kind: 'rate_limited', message: 'Too many requests' },
    }));
    const chain = new OptionChainState(bridge);
    await chain.load('NIFTY', 'NFO');
    expect(chain.quoteError).toBe('Quotes could not be read: Too many requests');
    expect(chain.rows).toHaveLength(21);
    expect(chain.rows.every((r) => r.CE?.quote === undefined)).toBe(true);
  });
});

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
    expect(ltp.textContent).toBe('—');
    await fireEvent.click(ltp);
    await settle();
    expect(screen.getByText('NIFTY 24 NOV 25000 CE: no ltp to trade at')).toBeTruthy();
    expect(f.ticket.instrument).toBeUndefined();
    expect(f.bridge.callsTo('market.symbol')).toEqual([]);
  });
});
