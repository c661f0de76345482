// The paper gateway's search answer over the real master: OpenAlgo's matches and relevance classes,
// each underlying's derivatives nearest expiry first.
import { describe, expect, it } from 'vitest';
import type { Instrument } from '../../../src-main/paper/instruments/instrument.js';
import { buildMaster } from '../../../src-main/paper/instruments/master.js';
import { createSearchIndex, SEARCH_LIMIT } from '../../../src-main/paper/instruments/search-index.js';
import { fieldsOf, parseQuery, scoreRow } from '../../../src-main/paper/instruments/search-query.js';
import { rankedSearch } from '../../../src-main/paper/instruments/search-ranked.js';

const master = buildMaster({ seed: 42, today: '2026-11-23' });
const index = createSearchIndex(master);
const search = (q: string, ex?: string) => rankedSearch(index, master, q, ex);
const dates = (rows: readonly Instrument[]) => rows.map((r) => r.expiryDate ?? '');
const isSorted = (xs: readonly string[]) => xs.every((x, i) => i === 0 || (xs[i - 1] as string) <= x);

describe('rankedSearch', () => {
  it.each(['NIFTY', 'BANKNIFTY', 'FINNIFTY'])('%s fut: the nearest future first, then by date', (name) => {
    const rows = search(`${name.toLowerCase()} fut`).filter((r) => r.name === name && r.exchange === 'NFO');
    const futures = master.derivatives('NFO', name).filter((r) => r.kind === 'FUT');
    const nearest = [...futures].sort((a, b) => (a.expiryDate ?? '').localeCompare(b.expiryDate ?? ''))[0];
    expect(rows.length).toBe(futures.length);
    expect(rows[0]?.symbol).toBe(nearest?.symbol);
    expect(isSorted(dates(rows))).toBe(true);
  });

  it('nifty fut: the first row of the whole answer is the nearest NIFTY future', () => {
    const first = search('nifty fut')[0] as Instrument;
    const futures = master.derivatives('NFO', 'NIFTY').filter((r) => r.kind === 'FUT');
    expect(first.name).toBe('NIFTY');
    expect(first.expiryDate).toBe(futures.map((r) => r.expiryDate ?? '').sort()[0]);
  });

  it('nifty 26000 ce: NIFTY calls at that strike by expiry, nearest first', () => {
    const rows = search('nifty 26000 ce');
    const nifty = rows.filter((r) => r.name === 'NIFTY' && r.exchange === 'NFO');
    expect(nifty.length).toBeGreaterThan(3);
    expect(rows.slice(0, nifty.length)).toEqual(nifty);
    expect(isSorted(dates(nifty))).toBe(true);
  });

  it('under the cap the same rows as the index; always classes in order, an exact symbol first', () => {
    for (const q of [
      'nifty',
      'sbin',
      'reliance',
      'banknifty dec',
      'NIFTY29DEC26FUT',
      'gold',
      'nifty 26000',
    ]) {
      const plain = index.search(q);
      const ranked = search(q);
      expect(ranked.length).toBe(plain.length);
      if (plain.length < SEARCH_LIMIT)
        expect(ranked.map((r) => r.id).sort()).toEqual(plain.map((r) => r.id).sort());
      const pq = parseQuery(q);
      expect(ranked.every((r) => scoreRow(fieldsOf(r), pq) >= 0)).toBe(true);
      const scores = ranked.map((r) => scoreRow(fieldsOf(r), pq));
      expect(isSorted(scores.map((s) => String(s)))).toBe(true);
      if (plain[0]?.symbol === q.toUpperCase()) expect(ranked[0]).toBe(plain[0]);
    }
  });

  it('nifty ce (over 500 matches): the nearest expiries, not those first by text', () => {
    const rows = search('nifty ce');
    expect(index.search('nifty ce')).toHaveLength(SEARCH_LIMIT);
    const calls = rows.filter((r) => r.name === 'NIFTY' && r.exchange === 'NFO');
    const shown = [...new Set(dates(calls))];
    const all = [...new Set(dates(master.derivatives('NFO', 'NIFTY').filter((r) => r.kind === 'CE')))].sort();
    // The dates shown are the nearest ones, in order (the text order kept 05 JAN before 15 DEC).
    expect(shown).toEqual(all.slice(0, shown.length));
    expect(shown.length).toBeGreaterThan(1);
    expect(isSorted(dates(calls))).toBe(true);
  });

  it('sbin: the NSE and BSE shares first, then its futures nearest first', () => {
    const rows = search('sbin');
    expect(
      rows
        .slice(0, 2)
        .map((r) => `${r.exchange}:${r.symbol}`)
        .sort(),
    ).toEqual(['BSE:SBIN', 'NSE:SBIN']);
    const futures = rows.filter((r) => r.name === 'SBIN' && r.kind === 'FUT');
    expect(rows[2]).toBe(futures[0]);
    expect(isSorted(dates(futures))).toBe(true);
  });
});
