// The option chain's logic: strikes of one underlying and expiry (other underlyings and expiries
// left out), the at-the-money strike (nearest the spot, else where call and put meet), the window
// either side of it.
import { afterEach, describe, expect, it } from 'vitest';
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
import { EXPIRY, listing, optionPrice, quote, STRIKES } from './option-chain-fixture.js';

afterEach(() => document.body.replaceChildren());

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
