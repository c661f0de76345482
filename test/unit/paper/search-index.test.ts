import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Instrument } from '../../../src-main/paper/instruments/instrument.js';
import { buildMaster } from '../../../src-main/paper/instruments/master.js';
import {
  createSearchIndex,
  linearSearch,
  SEARCH_LIMIT,
} from '../../../src-main/paper/instruments/search-index.js';
import { parseQuery, pythonFloat } from '../../../src-main/paper/instruments/search-query.js';

const TODAY = '2026-11-23';
const master = buildMaster({ seed: 42, today: TODAY });
const index = createSearchIndex(master);
const rows = master.all;
const EXCHANGES = [undefined, 'NSE', 'BSE', 'NFO', 'BFO', 'MCX', 'CDS', 'NSE_INDEX', 'BSE_INDEX', 'XYZ', ''];

// Independent statement of the rules (docs/gateway-behaviour.md 8.3), deliberately not reusing scoreRow.
function termMatches(r: Instrument, term: string, num: number | null): boolean {
  return (
    r.symbol.toUpperCase().includes(term) ||
    r.brsymbol.toUpperCase().includes(term) ||
    r.name.toUpperCase().includes(term) ||
    r.token.includes(term) ||
    (num !== null && r.strike !== 0 && r.strike === num)
  );
}

function expectedScore(r: Instrument, query: string): number {
  const whole = query.trim().toUpperCase();
  const terms = query.trim().toUpperCase().split(/\s+/);
  if (r.symbol === whole) return 0;
  if (r.symbol.startsWith(whole)) return 1;
  return terms.every((t) => r.symbol.includes(t)) ? 2 : 3;
}

function compareKey(a: Instrument, b: Instrument, query: string): number {
  return (
    expectedScore(a, query) - expectedScore(b, query) ||
    a.symbol.length - b.symbol.length ||
    (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0) ||
    a.id - b.id
  );
}

const scopes = new Map<string | undefined, readonly Instrument[]>();
function scope(exchange: string | undefined): readonly Instrument[] {
  let s = scopes.get(exchange);
  if (!s) {
    const on = exchange ? rows.filter((r) => r.exchange === exchange) : [];
    scopes.set(exchange, (s = on.length > 0 ? on : rows));
  }
  return s;
}

function matcher(query: string): (r: Instrument) => boolean {
  const terms = query.trim().toUpperCase().split(/\s+/);
  const nums = terms.map(pythonFloat);
  return (r) => terms.every((t, i) => termMatches(r, t, nums[i] ?? null));
}

const ids = (list: readonly Instrument[]) => list.map((r) => r.id);

// Query fragments taken from real rows, so most random queries hit something.
const row = fc.nat(rows.length - 1).map((i) => rows[i] as Instrument);
const cut = (text: string) =>
  fc
    .tuple(fc.nat(), fc.integer({ min: 1, max: 12 }))
    .map(([start, len]) => text.slice(start % text.length, (start % text.length) + len));
const fragment = fc.oneof(
  { weight: 4, arbitrary: row.chain((r) => cut(r.symbol)) },
  { weight: 2, arbitrary: row.chain((r) => cut(r.name)) },
  { weight: 2, arbitrary: row.chain((r) => fc.constantFrom(...r.brsymbol.split(' '))) },
  { weight: 2, arbitrary: row.filter((r) => r.strike > 0).map((r) => String(r.strike)) },
  { weight: 2, arbitrary: fc.constantFrom('JAN', 'FEB', 'MAR', 'DEC', 'NOV', 'FUT', '26', '27') },
  { weight: 2, arbitrary: fc.constantFrom('CE', 'PE', 'NIFTY', 'BANK', 'SBI', 'INFY', 'GOLD', 'USDINR') },
  { weight: 1, arbitrary: row.chain((r) => cut(r.token)) },
  { weight: 1, arbitrary: fc.constantFrom('Q', 'ZZ', '&', '-', '.', 'LTD', '-0.01', '0', '1E3', 'e') },
);
const query = fc
  .tuple(
    fc.array(fragment, { minLength: 1, maxLength: 3 }),
    fc.constantFrom('upper', 'lower', 'mixed'),
    fc.constantFrom(' ', '  ', '\t'),
    fc.boolean(),
  )
  .map(([parts, mode, sep, pad]) => {
    let q = parts.filter((p) => p.trim().length > 0).join(sep);
    if (mode === 'lower') q = q.toLowerCase();
    if (mode === 'mixed') q = [...q].map((c, i) => (i % 2 ? c.toLowerCase() : c)).join('');
    return pad ? ` ${q} ` : q;
  })
  .filter((q) => q.trim().length > 0);
const exchange = fc.constantFrom(...EXCHANGES);

describe('symbol search: properties', () => {
  it('index and linear scan agree, and both return exactly the best 500 matches', () => {
    fc.assert(
      fc.property(query, exchange, (q, ex) => {
        const fast = index.search(q, ex);
        const slow = linearSearch(master, q, ex);
        expect(ids(fast)).toEqual(ids(slow));
        const total = scope(ex).filter(matcher(q)).length;
        expect(fast.length).toBe(Math.min(SEARCH_LIMIT, total));
      }),
      { numRuns: 30 },
    );
  });

  it('every result matches every term, in the specified order, exact symbol first', () => {
    fc.assert(
      fc.property(query, exchange, (q, ex) => {
        const got = index.search(q, ex);
        expect(got.length).toBeLessThanOrEqual(SEARCH_LIMIT);
        const matches = matcher(q);
        expect(got.filter((r) => !matches(r))).toEqual([]);
        for (let i = 1; i < got.length; i++) {
          expect(compareKey(got[i - 1] as Instrument, got[i] as Instrument, q)).toBeLessThan(0);
        }
        const inScope = scope(ex);
        if (ex && inScope !== rows) expect(got.filter((r) => r.exchange !== ex)).toEqual([]);
        const whole = q.trim().toUpperCase();
        if (inScope.some((r) => r.symbol === whole)) expect(got[0]?.symbol).toBe(whole);
      }),
      { numRuns: 250 },
    );
  });

  it('an exact symbol ranks first, in any case, with or without its exchange', () => {
    fc.assert(
      fc.property(row, fc.boolean(), fc.boolean(), (r, lower, filtered) => {
        const q = lower ? r.symbol.toLowerCase() : r.symbol;
        const got = index.search(q, filtered ? r.exchange : undefined);
        expect(got[0]?.symbol).toBe(r.symbol);
        if (filtered) expect(got[0]?.exchange).toBe(r.exchange);
        // Every other row with that symbol (the same equity on NSE and BSE) comes right after.
        const same = (filtered ? scope(r.exchange) : rows).filter((x) => x.symbol === r.symbol).length;
        expect(got.slice(0, same).every((x) => x.symbol === r.symbol)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the linear scan on hand-picked awkward queries', () => {
    const awkward = [
      'N',
      'E',
      '5',
      '&',
      'CE',
      'LT',
      'NIFTY29DEC26',
      '-0.01',
      '0',
      '0.0',
      '1_000',
      'inf',
      'nan',
      '88.50',
      'LIMITED',
    ];
    for (const q of awkward) {
      for (const ex of [undefined, 'NSE', 'NFO', 'XYZ'])
        expect(ids(index.search(q, ex)), `${q} @ ${ex}`).toEqual(ids(linearSearch(master, q, ex)));
    }
  });

  it('agrees with the linear scan where prefix runs, exchange rows and strikes meet', () => {
    // Prefix runs over many symbol lengths, filtered by a small exchange; a query whose whole text
    // (with its space) is no symbol's prefix; numeric terms matching by strike or by text; 500+ matches.
    const cases: [string, string | undefined][] = [
      ['A', 'MCX'],
      ['NIFTY', 'NFO'],
      ['SBIN', 'BSE'],
      ['BANK', 'NSE_INDEX'],
      ['nifty bank', undefined],
      ['NIFTY 2', 'NFO'],
      ['hindcopper 450', undefined],
      ['BANKNIFTY 59000 DEC PE', 'BFO'],
      ['100', undefined],
      ['50', 'CDS'],
      ['GOLD', 'MCX'],
      ['LTD', undefined],
    ];
    for (const [q, ex] of cases)
      expect(ids(index.search(q, ex)), `${q} @ ${ex}`).toEqual(ids(linearSearch(master, q, ex)));
  });
});

describe('symbol search: examples', () => {
  it('NIFTY 24000 CE: NIFTY calls at that strike first, then longer names containing NIFTY', () => {
    const got = index.search('NIFTY 24000 CE', 'NFO');
    const niftyCalls = rows.filter((r) => r.name === 'NIFTY' && r.kind === 'CE' && r.strike === 24000);
    expect(niftyCalls.length).toBeGreaterThan(10);
    expect(ids(got.slice(0, niftyCalls.length)).sort()).toEqual(ids(niftyCalls).sort());
    for (const r of got) {
      expect(r.symbol).toContain('NIFTY');
      expect(r.symbol.endsWith('CE')).toBe(true);
      expect(r.strike === 24000 || r.symbol.includes('24000') || r.token.includes('24000')).toBe(true);
    }
    expect(got[0]?.symbol).toBe('NIFTY01DEC2624000CE');
  });

  it('NIFTY DEC: the December future leads, every row is a December NIFTY-family contract', () => {
    const got = index.search('nifty dec');
    expect(got).toHaveLength(SEARCH_LIMIT);
    expect(got[0]?.symbol).toBe('NIFTY29DEC26FUT');
    for (const r of got) expect(r.symbol.includes('NIFTY') && r.symbol.includes('DEC')).toBe(true);
  });

  it('BANKNIFTY 59000 DEC PE: the one contract', () => {
    const got = index.search('BANKNIFTY 59000 DEC PE');
    expect(got.map((r) => r.symbol)).toEqual(['BANKNIFTY29DEC2659000PE']);
  });

  it('equities: exact symbol on NSE and BSE first, then its derivatives', () => {
    const rel = index.search('reliance');
    expect(rel.slice(0, 2).map((r) => `${r.exchange}:${r.symbol}`)).toEqual(['NSE:RELIANCE', 'BSE:RELIANCE']);
    expect(rel[2]?.symbol).toBe('RELIANCE23NOV26FUT');
    const infy = index.search('INFY', 'NSE');
    expect(infy.map((r) => r.symbol)).toEqual(['INFY']);
    const sbi = index.search('SBI');
    expect(sbi.slice(0, 2).map((r) => r.symbol)).toEqual(['SBIN', 'SBIN']);
    expect(sbi.some((r) => r.symbol === 'SBILIFE')).toBe(true);
  });

  it('matches names and broker symbols too (score 3 after symbol matches)', () => {
    const bank = index.search('nifty bank', 'NSE_INDEX');
    expect(bank.map((r) => r.symbol)).toContain('BANKNIFTY');
    const byName = index.search('RELIANCE INDUSTRIES');
    expect(byName.map((r) => `${r.exchange}:${r.symbol}`)).toEqual(['NSE:RELIANCE', 'BSE:RELIANCE']);
    const br = index.search('RELIANCE-EQ');
    expect(br.map((r) => r.symbol)).toEqual(['RELIANCE']);
  });

  it('filters by exchange only when the exchange has rows', () => {
    const idx = index.search('NIFTY', 'NSE_INDEX');
    expect(idx[0]?.symbol).toBe('NIFTY');
    expect(idx.every((r) => r.exchange === 'NSE_INDEX')).toBe(true);
    expect(ids(index.search('NIFTY', 'NCDEX'))).toEqual(ids(index.search('NIFTY')));
    expect(index.search('NIFTY')).toHaveLength(SEARCH_LIMIT);
  });

  it('numeric terms also match strikes exactly, including the -0.01 of cash rows', () => {
    const cash = index.search('-0.01');
    expect(cash.length).toBeGreaterThan(0);
    expect(cash.every((r) => r.kind === 'EQ' || r.kind === 'INDEX')).toBe(true);
    const fx = index.search('USDINR 88.50 CE');
    expect(fx.length).toBeGreaterThan(0);
    expect(fx.every((r) => r.strike === 88.5 && r.kind === 'CE')).toBe(true);
  });

  it('returns nothing for blank or unknown queries', () => {
    expect(index.search('')).toEqual([]);
    expect(index.search('   \t ')).toEqual([]);
    expect(index.search('ZZZZ')).toEqual([]);
    expect(linearSearch(master, ' ')).toEqual([]);
  });
});

describe('query parsing', () => {
  it('splits and strips like Python str.split()/strip() and parses floats like float()', () => {
    expect(parseQuery('  nifty\t24000  ce ')).toMatchObject({
      whole: 'NIFTY\t24000  CE',
      terms: ['NIFTY', '24000', 'CE'],
    });
    expect(parseQuery('\u001fA\u00a0b').terms).toEqual(['A', 'B']);
    expect(['1', '-0.01', '+2.5', '.5', '5.', '1_000', '1E3'].map(pythonFloat)).toEqual([
      1, -0.01, 2.5, 0.5, 5, 1000, 1000,
    ]);
    expect(['1__0', '_1', 'E3', '.', '1.2.3', 'CE', ''].map(pythonFloat)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(pythonFloat('INF')).toBe(Infinity);
    expect(Number.isNaN(pythonFloat('nan'))).toBe(true);
  });
});
