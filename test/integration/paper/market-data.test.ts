// Market-data and reference endpoints of the paper gateway over real HTTP: shapes checked against
// the contract schemas and exact JSON types, every §7.3 expiry message, and 403 on every endpoint.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AnalyzerResponse,
  DepthResponse,
  ErrorBody,
  ExpiryResponse,
  HistoryResponse,
  IntervalsResponse,
  MultiQuotesResponse,
  PingResponse,
  QuotesResponse,
  SearchResponse,
  SymbolRecord,
  SymbolResponse,
} from '../../../src-main/contract/index.js';
import { expectExact } from '../../support/exact.js';
import { useTestGateway } from '../../support/paper-gateway.js';

const gw = useTestGateway();

type SearchRow = z.output<typeof SymbolRecord>;

const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

describe('ping, intervals, analyzer', () => {
  it('ping answers pong from the paper broker', async () => {
    const r = await gw.post('/api/v1/ping', { apikey: gw.apiKey });
    expect(r.status).toBe(200);
    expectExact(PingResponse, r.json);
    expect(r.json).toEqual({ status: 'success', data: { broker: 'paper', message: 'pong' } });
  });

  it('intervals lists what the simulator supports', async () => {
    const r = await gw.post('/api/v1/intervals', { apikey: gw.apiKey });
    expect(r.status).toBe(200);
    expectExact(IntervalsResponse, r.json);
    expect(r.body['data']).toEqual({
      seconds: ['1s', '5s', '10s', '15s', '30s', '45s'],
      minutes: ['1m', '2m', '3m', '5m', '10m', '15m', '20m', '30m'],
      hours: ['1h', '2h', '3h', '4h'],
      days: ['D'],
      weeks: ['W'],
      months: ['M'],
    });
  });

  it('analyzer reports sandbox mode with an integer mode_version', async () => {
    const r = await gw.post('/api/v1/analyzer', { apikey: gw.apiKey });
    expect(r.status).toBe(200);
    expectExact(AnalyzerResponse, r.json);
    const d = r.body['data'] as Record<string, unknown>;
    expect(d['analyze_mode']).toBe(true);
    expect(d['mode']).toBe('analyze');
    expect(d['balance_type']).toBe('sandbox');
    expect(isInt(d['mode_version'])).toBe(true);
    expect(isInt(d['total_logs'])).toBe(true);
  });
});

describe('depth, quotes, multiquotes', () => {
  it('depth has five levels each side and numeric fields', async () => {
    const r = await gw.post('/api/v1/depth', { apikey: gw.apiKey, symbol: 'SBIN', exchange: 'NSE' });
    expect(r.status).toBe(200);
    expectExact(DepthResponse, r.json);
    const d = r.body['data'] as Record<string, unknown>;
    for (const f of ['open', 'high', 'low', 'ltp', 'prev_close']) expect(isNum(d[f]), f).toBe(true);
    for (const f of ['ltq', 'volume', 'oi', 'totalbuyqty', 'totalsellqty']) expect(isInt(d[f]), f).toBe(true);
    const asks = d['asks'] as { price: number; quantity: number }[];
    const bids = d['bids'] as { price: number; quantity: number }[];
    expect(asks).toHaveLength(5);
    expect(bids).toHaveLength(5);
    for (const l of [...asks, ...bids]) {
      expect(Object.keys(l).sort()).toEqual(['price', 'quantity']);
      expect(isNum(l.price) && isInt(l.quantity)).toBe(true);
    }
    // Best first: asks rise, bids fall, and the book does not cross.
    for (let i = 1; i < 5; i++) {
      expect(asks[i]!.price).toBeGreaterThan(asks[i - 1]!.price);
      expect(bids[i]!.price).toBeLessThan(bids[i - 1]!.price);
    }
    expect(bids[0]!.price).toBeLessThan(asks[0]!.price);
  });

  it('depth of an option: levels one tick apart in whole lots, open interest, day range around ltp', async () => {
    const symbol = 'NIFTY29DEC2626000CE';
    const inst = gw.gateway.master.get('NFO', symbol)!;
    expect(inst).toMatchObject({ lotsize: 65, tickSize: 0.05 });
    const r = await gw.post('/api/v1/depth', { apikey: gw.apiKey, symbol, exchange: 'NFO' });
    expect(r.status).toBe(200);
    const d = expectExact(DepthResponse, r.json).data;
    const ticks = (p: number) => Math.round(p / inst.tickSize);
    for (const side of [d.asks, d.bids]) {
      expect(side).toHaveLength(5);
      for (const l of side) {
        expect(Math.abs(l.price / inst.tickSize - ticks(l.price))).toBeLessThan(1e-6);
        expect(l.quantity % inst.lotsize).toBe(0);
        expect(l.quantity).toBeGreaterThan(0);
      }
      for (let i = 1; i < 5; i++) expect(Math.abs(ticks(side[i]!.price) - ticks(side[i - 1]!.price))).toBe(1);
    }
    expect(ticks(d.asks[0]!.price) - ticks(d.bids[0]!.price)).toBeGreaterThanOrEqual(1);
    expect(d.oi).toBeGreaterThan(0);
    expect(d.low).toBeLessThanOrEqual(d.ltp);
    expect(d.high).toBeGreaterThanOrEqual(d.ltp);
    // Totals cover the whole book, as brokers report them: at least the five levels shown.
    expect(d.totalbuyqty).toBeGreaterThanOrEqual(d.bids.reduce((a, l) => a + l.quantity, 0));
    expect(d.totalsellqty).toBeGreaterThanOrEqual(d.asks.reduce((a, l) => a + l.quantity, 0));
    // Cash equities carry no open interest.
    const eq = await gw.post('/api/v1/depth', { apikey: gw.apiKey, symbol: 'SBIN', exchange: 'NSE' });
    expect((eq.body['data'] as { oi: number }).oi).toBe(0);
  });

  it('depth of an unknown symbol is 400 naming it', async () => {
    const r = await gw.post('/api/v1/depth', { apikey: gw.apiKey, symbol: 'FOO', exchange: 'NSE' });
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(/Symbol 'FOO' not found for exchange 'NSE'/);
  });

  it('quotes has the upstream fields as numbers', async () => {
    const r = await gw.post('/api/v1/quotes', { apikey: gw.apiKey, symbol: 'RELIANCE', exchange: 'NSE' });
    expect(r.status).toBe(200);
    expectExact(QuotesResponse, r.json);
    const d = r.body['data'] as Record<string, unknown>;
    expect(Object.keys(d).sort()).toEqual([
      'ask',
      'ask_qty',
      'bid',
      'bid_qty',
      'high',
      'low',
      'ltp',
      'oi',
      'open',
      'prev_close',
      'volume',
    ]);
    for (const v of Object.values(d)) expect(isNum(v)).toBe(true);
    expect(isInt(d['volume'])).toBe(true);
  });

  it('quotes of an unknown symbol is 400 with the upstream sentence', async () => {
    const r = await gw.post('/api/v1/quotes', { apikey: gw.apiKey, symbol: 'RELIANC', exchange: 'NSE' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      status: 'error',
      message:
        "Symbol 'RELIANC' not found for exchange 'NSE'. Please verify the symbol name and ensure master contracts are downloaded.",
    });
  });

  it('multiquotes lists invalid symbols first, then quotes', async () => {
    const r = await gw.post('/api/v1/multiquotes', {
      apikey: gw.apiKey,
      symbols: [
        { symbol: 'RELIANCE', exchange: 'NSE' },
        { symbol: 'FOO', exchange: 'NSE' },
        { symbol: 'TCS', exchange: 'NSE' },
      ],
    });
    expect(r.status).toBe(200);
    expectExact(MultiQuotesResponse, r.json);
    const results = r.body['results'] as Record<string, unknown>[];
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({ symbol: 'FOO', exchange: 'NSE' });
    expect(results[0]!['error']).toMatch(/not found/);
    expect(results.slice(1).map((x) => x['symbol'])).toEqual(['RELIANCE', 'TCS']);
    expect(isNum((results[1]!['data'] as Record<string, unknown>)['ltp'])).toBe(true);
  });

  it('multiquotes with only invalid symbols is 400 with invalid_symbols', async () => {
    const r = await gw.post('/api/v1/multiquotes', {
      apikey: gw.apiKey,
      symbols: [
        { symbol: 'FOO', exchange: 'NSE' },
        { symbol: 'BAR', exchange: 'BSE' },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body['status']).toBe('error');
    expect(r.body['message']).toMatch(/Symbol 'FOO' not found/);
    expect(r.body['invalid_symbols']).toHaveLength(2);
  });

  it('multiquotes names a bad entry by its index', async () => {
    const r = await gw.post('/api/v1/multiquotes', { apikey: gw.apiKey, symbols: [{ symbol: 'SBIN' }] });
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(/symbols\[0\]\.exchange/);
  });
});

describe('symbol and search', () => {
  it('symbol returns the master row with id and freeze_qty', async () => {
    const r = await gw.post('/api/v1/symbol', { apikey: gw.apiKey, symbol: 'RELIANCE', exchange: 'NSE' });
    expect(r.status).toBe(200);
    expectExact(SymbolResponse, r.json);
    const d = r.body['data'] as Record<string, unknown>;
    expect(d).toMatchObject({ symbol: 'RELIANCE', exchange: 'NSE', expiry: '', strike: -0.01, lotsize: 1 });
    expect(isInt(d['id']) && isInt(d['freeze_qty'])).toBe(true);
    expect(typeof d['token']).toBe('string');
    expect(isNum(d['tick_size'])).toBe(true);
  });

  it('unknown symbol is 404 with the upstream sentence', async () => {
    const r = await gw.post('/api/v1/symbol', { apikey: gw.apiKey, symbol: 'FOO', exchange: 'NSE' });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ status: 'error', message: 'Symbol FOO not found in exchange NSE' });
  });

  it('search finds option contracts by symbol, strike, month and type', async () => {
    const r = await gw.post('/api/v1/search', {
      apikey: gw.apiKey,
      query: 'NIFTY 26000 DEC CE',
      exchange: 'NFO',
    });
    expect(r.status).toBe(200);
    expectExact(SearchResponse, r.json);
    const rows = r.body['data'] as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    expect(r.body['message']).toBe(`Found ${rows.length} matching symbols`);
    for (const row of rows) {
      expect(row['exchange']).toBe('NFO');
      expect(row['symbol']).toMatch(/NIFTY\d{2}DEC\d{2}26000CE$/);
      expect(row['strike']).toBe(26000);
      expect(isInt(row['freeze_qty']) && isInt(row['lotsize'])).toBe(true);
      expect(row['expiry']).toMatch(/^\d{2}-DEC-\d{2}$/);
    }
  });

  it('search is case-insensitive and searches every exchange without a filter', async () => {
    const r = await gw.post('/api/v1/search', { apikey: gw.apiKey, query: 'reliance' });
    expect(r.status).toBe(200);
    const exchanges = new Set((r.body['data'] as { exchange: string }[]).map((x) => x.exchange));
    expect(exchanges.has('NSE')).toBe(true);
    expect(exchanges.size).toBeGreaterThan(1);
  });

  it('no match is 200 with [] and the upstream message', async () => {
    const r = await gw.post('/api/v1/search', { apikey: gw.apiKey, query: 'ZZZZQQQ' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 'success', message: 'No matching symbols found', data: [] });
  });

  /** Search over HTTP; every row checked exactly against the contract. */
  async function search(query: string, exchange?: string): Promise<SearchRow[]> {
    const r = await gw.post('/api/v1/search', {
      apikey: gw.apiKey,
      query,
      ...(exchange ? { exchange } : {}),
    });
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    const rows = expectExact(SearchResponse, r.json).data as SearchRow[];
    expect(r.body['message']).toBe(
      rows.length > 0 ? `Found ${rows.length} matching symbols` : 'No matching symbols found',
    );
    return rows;
  }
  /** The §8.3 match rule, stated independently: every term in symbol, brsymbol, name or token, or = strike. */
  const matchesAll = (row: SearchRow, query: string) =>
    query
      .trim()
      .toUpperCase()
      .split(/\s+/)
      .every(
        (t) =>
          [row.symbol, row.brsymbol, row.name, row.token].some((f) => f.toUpperCase().includes(t)) ||
          (Number.isFinite(Number(t)) && row.strike === Number(t)),
      );

  it('NIFTY 24000 CE: every NIFTY call at 24000 first, then other matches; every row holds every term', async () => {
    const master = gw.gateway.master;
    const calls = master.all
      .filter((i) => i.exchange === 'NFO' && i.name === 'NIFTY' && i.kind === 'CE' && i.strike === 24000)
      .map((i) => i.symbol)
      .sort();
    expect(calls.length, 'the master lists NIFTY 24000 calls on several expiries').toBeGreaterThan(3);
    const rows = await search('NIFTY 24000 CE');
    expect(
      rows
        .slice(0, calls.length)
        .map((x) => x.symbol)
        .sort(),
    ).toEqual(calls);
    for (const row of rows) expect(matchesAll(row, 'NIFTY 24000 CE'), row.symbol).toBe(true);
    expect(rows[0]).toMatchObject({
      exchange: 'NFO',
      name: 'NIFTY',
      strike: 24000,
      lotsize: 65,
      freeze_qty: 1800,
    });
    // Same answer in lower case and with the exchange filter.
    expect((await search('nifty 24000 ce')).map((x) => x.symbol)).toEqual(rows.map((x) => x.symbol));
    expect((await search('NIFTY 24000 CE', 'NFO')).map((x) => x.symbol)).toEqual(
      rows.filter((x) => x.exchange === 'NFO').map((x) => x.symbol),
    );
  });

  it('NIFTY DEC: capped at 500, the December NIFTY future first, every row a December NIFTY-family contract', async () => {
    const rows = await search('NIFTY DEC');
    expect(rows).toHaveLength(500);
    expect(rows[0]?.symbol).toBe('NIFTY29DEC26FUT');
    for (const row of rows) {
      expect(row.symbol, row.symbol).toMatch(/NIFTY.*\d{2}DEC\d{2}/);
      expect(row.expiry).toMatch(/-DEC-/);
    }
  });

  it('BANKNIFTY 52000 DEC PE: exactly the one contract, with its master fields', async () => {
    const rows = await search('BANKNIFTY 52000 DEC PE');
    expect(rows).toEqual([
      {
        symbol: 'BANKNIFTY29DEC2652000PE',
        brsymbol: 'BANKNIFTY 52000 PE 29 DEC 26',
        name: 'BANKNIFTY',
        exchange: 'NFO',
        brexchange: 'NSE_FO',
        token: gw.gateway.master.get('NFO', 'BANKNIFTY29DEC2652000PE')?.token,
        expiry: '29-DEC-26',
        strike: 52000,
        lotsize: 30,
        instrumenttype: 'OPTIDX',
        tick_size: 0.05,
        freeze_qty: 600,
      },
    ]);
  });

  it('an exact symbol ranks first, on every exchange and kind of instrument', async () => {
    const all = gw.gateway.master.all;
    const kinds = ['EQ', 'INDEX', 'FUT', 'CE', 'PE'];
    const picks = ['NSE', 'BSE', 'NSE_INDEX', 'BSE_INDEX', 'NFO', 'BFO', 'MCX', 'CDS'].flatMap((ex) =>
      kinds.flatMap((kind) => {
        const rows = all.filter((i) => i.exchange === ex && i.kind === kind);
        return rows.length === 0 ? [] : [rows[0]!, rows[Math.floor(rows.length / 2)]!, rows.at(-1)!];
      }),
    );
    expect(picks.length).toBeGreaterThan(40);
    for (const inst of picks) {
      const rows = await search(inst.symbol.toLowerCase());
      expect(rows[0]?.symbol, inst.symbol).toBe(inst.symbol);
      const filtered = await search(inst.symbol, inst.exchange);
      expect(filtered[0], `${inst.exchange}:${inst.symbol}`).toMatchObject({
        symbol: inst.symbol,
        exchange: inst.exchange,
      });
    }
  });

  it('a 100,000-character query is 400 naming the field', async () => {
    const r = await gw.post('/api/v1/search', { apikey: gw.apiKey, query: 'N'.repeat(100_000) });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ status: 'error', message: 'query must be at most 256 characters' });
  });

  it.each([[''], ['   '], [undefined]])('empty query %j is 400', async (query) => {
    const r = await gw.post('/api/v1/search', { apikey: gw.apiKey, query });
    expect(r.status).toBe(400);
    expect(r.body['message']).toBe('Query parameter is required and cannot be empty');
  });
});

describe('expiry (§4.17, §7.3)', () => {
  it('lists NIFTY option expiries chronologically, none before today', async () => {
    const r = await gw.post('/api/v1/expiry', {
      apikey: gw.apiKey,
      symbol: 'NIFTY',
      exchange: 'NFO',
      instrumenttype: 'options',
    });
    expect(r.status).toBe(200);
    expectExact(ExpiryResponse, r.json);
    const dates = r.body['data'] as string[];
    expect(dates.length).toBeGreaterThan(3);
    expect(r.body['message']).toBe(`Found ${dates.length} expiry dates for NIFTY options in NFO`);
    const parsed = dates.map((d) => {
      expect(d).toMatch(/^\d{2}-[A-Z]{3}-\d{2}$/);
      return Date.parse(d.replace(/-(\d{2})$/, '-20$1'));
    });
    expect([...parsed].sort((a, b) => a - b)).toEqual(parsed);
    expect(parsed[0]!).toBeGreaterThanOrEqual(Date.parse('2026-11-20'));
  });

  async function expiries(symbol: string, exchange: string, instrumenttype: string): Promise<string[]> {
    const r = await gw.post('/api/v1/expiry', { apikey: gw.apiKey, symbol, exchange, instrumenttype });
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    return expectExact(ExpiryResponse, r.json).data;
  }
  /** An underlying's own expiries, from the master rows whose underlying name is exactly `name`. */
  function ownExpiries(name: string, exchange: string, futures: boolean): string[] {
    const dates = new Set<string>();
    for (const i of gw.gateway.master.all) {
      if (i.exchange === exchange && i.name === name && (i.kind === 'FUT') === futures && i.expiryDate)
        dates.add(i.expiryDate);
    }
    const fmt = (iso: string) => {
      const [y, m, d] = iso.split('-');
      const mon = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
      return `${d}-${mon[Number(m) - 1]}-${y!.slice(2)}`;
    };
    return [...dates].sort().map(fmt);
  }

  it('matches the underlying exactly: NIFTY vs NIFTYNXT50, and a prefix matches nothing', async () => {
    const nifty = await expiries('NIFTY', 'NFO', 'options');
    const next50 = await expiries('NIFTYNXT50', 'NFO', 'options');
    expect(nifty).toEqual(ownExpiries('NIFTY', 'NFO', false));
    expect(next50).toEqual(ownExpiries('NIFTYNXT50', 'NFO', false));
    // NIFTY has weeklies; NIFTYNXT50 only monthlies, so the two answers differ.
    expect(next50.length).toBeLessThan(nifty.length);
    expect(await expiries('NIFTY', 'NFO', 'futures')).toEqual(ownExpiries('NIFTY', 'NFO', true));
    // Prefixes of longer underlyings are not underlyings.
    for (const prefix of ['NIFTYNXT', 'NIFTYNXT5', 'BANK', 'NIFT', 'SENSEX5']) {
      for (const ex of ['NFO', 'BFO']) expect(await expiries(prefix, ex, 'options'), prefix).toEqual([]);
    }
  });

  it('matches the underlying exactly where the dates differ: MCX GOLD never picks up GOLDM', async () => {
    const gold = await expiries('GOLD', 'MCX', 'futures');
    const goldm = await expiries('GOLDM', 'MCX', 'futures');
    expect(gold).toEqual(ownExpiries('GOLD', 'MCX', true));
    const onlyGoldm = goldm.filter((d) => !gold.includes(d));
    expect(onlyGoldm.length, 'GOLDM has expiries GOLD does not').toBeGreaterThan(0);
    for (const d of onlyGoldm) expect(gold).not.toContain(d);
    expect(await expiries('gold', 'MCX', 'futures')).toEqual(gold);
  });

  it('no match is 200 success with [] and the §7.3 sentence', async () => {
    const r = await gw.post('/api/v1/expiry', {
      apikey: gw.apiKey,
      symbol: 'FOO',
      exchange: 'NFO',
      instrumenttype: 'futures',
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      status: 'success',
      message: 'No expiry dates found for FOO futures in NFO',
      data: [],
    });
  });

  const base = { symbol: 'NIFTY', exchange: 'NFO', instrumenttype: 'options' };
  it.each([
    [{ symbol: undefined }, 'Symbol parameter is required and cannot be empty'],
    [{ symbol: '  ' }, 'Symbol parameter is required and cannot be empty'],
    [{ exchange: undefined }, 'Exchange parameter is required and cannot be empty'],
    [{ exchange: '' }, 'Exchange parameter is required and cannot be empty'],
    [{ instrumenttype: undefined }, 'Instrumenttype parameter is required and cannot be empty'],
    [{ instrumenttype: '' }, 'Instrumenttype parameter is required and cannot be empty'],
    [{ instrumenttype: 'stocks' }, "Instrumenttype must be either 'futures' or 'options'"],
    [{ exchange: 'NSE' }, 'Exchange must be one of: NFO, BFO, MCX, CDS'],
  ])('%j → %s', async (patch, message) => {
    const r = await gw.post('/api/v1/expiry', { apikey: gw.apiKey, ...base, ...patch });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ status: 'error', message });
  });

  it.each(['BFO', 'MCX', 'CDS'])('%s answers for both instrument types', async (exchange) => {
    for (const instrumenttype of ['futures', 'options']) {
      const r = await gw.post('/api/v1/expiry', { apikey: gw.apiKey, symbol: 'X', exchange, instrumenttype });
      expect(r.status).toBe(200);
      expectExact(ExpiryResponse, r.json);
    }
  });
});

describe('history (§9.4)', () => {
  it('returns epoch-second bars with integer volume and oi always present', async () => {
    const r = await gw.post('/api/v1/history', {
      apikey: gw.apiKey,
      symbol: 'SBIN',
      exchange: 'NSE',
      interval: '5m',
      start_date: '2026-11-19',
      end_date: '2026-11-20',
    });
    expect(r.status).toBe(200);
    expectExact(HistoryResponse, r.json);
    const bars = r.body['data'] as Record<string, unknown>[];
    expect(bars.length).toBeGreaterThan(100);
    for (const b of bars) {
      expect(Object.keys(b).sort()).toEqual(['close', 'high', 'low', 'oi', 'open', 'timestamp', 'volume']);
      expect(isInt(b['timestamp']) && isInt(b['volume']) && isInt(b['oi'])).toBe(true);
      expect((b['timestamp'] as number) % 300).toBe(0);
    }
    const first = bars[0]!['timestamp'] as number;
    // A past day's bars start at the session's open; today (open around the clock) at midnight.
    expect(first).toBe(Date.parse('2026-11-19T09:15:00+05:30') / 1000);
    expect(
      bars.filter((b) => (b['timestamp'] as number) < Date.parse('2026-11-20T00:00:00+05:30') / 1000),
    ).toHaveLength(75);
    // Nothing after now (10:00 IST on the 20th).
    expect(bars.at(-1)!['timestamp'] as number).toBeLessThanOrEqual(gw.clock.now() / 1000);
  });

  it('rejects an interval outside the list, naming the field', async () => {
    const r = await gw.post('/api/v1/history', {
      apikey: gw.apiKey,
      symbol: 'SBIN',
      exchange: 'NSE',
      interval: '7m',
      start_date: '2026-11-19',
      end_date: '2026-11-20',
    });
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(/^interval must be one of/);
  });

  const history = (fields: Record<string, unknown>) =>
    gw.post('/api/v1/history', { apikey: gw.apiKey, symbol: 'SBIN', exchange: 'NSE', ...fields });
  const istMidnight = (d: string) => Date.parse(`${d}T00:00:00+05:30`) / 1000;

  it('serves the whole range: 40 days of 1m start at start_date (no ticker clamp upstream)', async () => {
    const r = await history({ interval: '1m', start_date: '2026-10-01', end_date: '2026-11-10' });
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    const bars = r.body['data'] as { timestamp: number }[];
    // Sessions only: 09:15-15:30 on the 26 trading days (weekends, 2-Oct, 20-Oct and 10-Nov closed).
    expect(bars[0]!.timestamp).toBe(istMidnight('2026-10-01') + 555 * 60);
    expect(bars.at(-1)!.timestamp).toBe(istMidnight('2026-11-09') + 929 * 60);
    expect(bars).toHaveLength(26 * 375);
  });

  it('serves nearly ten years of D from start_date, up to the 3650-day limit', async () => {
    const r = await history({ interval: 'D', start_date: '2017-01-01', end_date: '2026-11-20' });
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    const bars = r.body['data'] as { timestamp: number }[];
    // 1-Jan-2017 was a Sunday: no bar. Daily bars are stamped 00:00 UTC of their date, as the live server.
    expect(bars[0]!.timestamp).toBe(Date.parse('2017-01-02T00:00:00Z') / 1000);
    expect(bars.at(-1)!.timestamp).toBe(Date.parse('2026-11-20T00:00:00Z') / 1000);
  });

  it('refuses more than 1,000,000 bars with a sentence naming the limit, never trimming', async () => {
    const r = await history({ interval: '1s', start_date: '2026-11-01', end_date: '2026-11-20' });
    expect(r.status).toBe(400);
    expectExact(ErrorBody, r.json);
    expect(r.body['message']).toBe(
      'start_date to end_date holds up to 16,77,601 1s bars; history answers at most 10,00,000 bars per request. Ask for a shorter range or a longer interval.',
    );
  });

  it('refuses a range longer than 3650 days with a sentence naming the limit', async () => {
    const r = await history({ interval: 'D', start_date: '2000-01-01', end_date: '2026-11-20' });
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(
      /^start_date to end_date spans 9,821 days; history serves at most 3,650 days/,
    );
  });

  it('a 10-digit (seconds) timestamp is 400 saying milliseconds or a date is expected', async () => {
    const r = await history({ interval: 'D', start_date: '1763577000', end_date: '2026-11-20' });
    expect(r.status).toBe(400);
    expect(r.body['message']).toBe(
      'start_date: must be a date (YYYY-MM-DD) or a timestamp in milliseconds (13 digits; 10 would be seconds)',
    );
  });

  it('rejects an impossible date', async () => {
    const r = await gw.post('/api/v1/history', {
      apikey: gw.apiKey,
      symbol: 'SBIN',
      exchange: 'NSE',
      interval: 'D',
      start_date: '2026-02-30',
      end_date: '2026-11-20',
    });
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(/start_date/);
  });
});

describe('symbol case: upper-cased on every endpoint, as placeorder does', () => {
  const read = (path: string, fields: Record<string, unknown>) =>
    gw.post(`/api/v1/${path}`, { apikey: gw.apiKey, ...fields });
  const history = { exchange: 'NSE', interval: 'D', start_date: '2026-11-02', end_date: '2026-11-13' };

  it.each([
    ['depth', { exchange: 'NSE' }],
    ['quotes', { exchange: 'NSE' }],
    ['symbol', { exchange: 'NSE' }],
    ['history', history],
  ] as const)('%s answers sbin and  Sbin  exactly as SBIN', async (path, fields) => {
    const upper = await read(path, { ...fields, symbol: 'SBIN' });
    expect(upper.status, upper.text).toBe(200);
    for (const symbol of ['sbin', ' Sbin ']) {
      const r = await read(path, { ...fields, symbol });
      expect(r.status, r.text).toBe(200);
      expect(r.json).toEqual(upper.json);
    }
  });

  it('multiquotes quotes a lower-case symbol and echoes the master spelling', async () => {
    const r = await read('multiquotes', { symbols: [{ symbol: 'sbin', exchange: 'NSE' }] });
    expect(r.status, r.text).toBe(200);
    const quotes = await read('quotes', { symbol: 'SBIN', exchange: 'NSE' });
    expect(r.body['results']).toEqual([{ symbol: 'SBIN', exchange: 'NSE', data: quotes.body['data'] }]);
  });

  it('ticker answers NSE:sbin (JSON and txt) as NSE:SBIN', async () => {
    const q = 'interval=D&from=2026-11-02&to=2026-11-13';
    const key = { 'X-API-KEY': gw.apiKey };
    const upper = await gw.get(`/api/v1/ticker/NSE:SBIN?${q}`, key);
    const lower = await gw.get(`/api/v1/ticker/NSE:sbin?${q}`, key);
    expect([lower.status, lower.text]).toEqual([200, upper.text]);
    const txt = await gw.get(`/api/v1/ticker/sbin?${q}&format=txt`, key);
    expect(txt.status).toBe(200);
    expect(txt.text.split('\n')[0]).toMatch(/^NSE:SBIN,2026-11-02,/);
  });

  it('an unknown symbol is still refused, named in the master spelling', async () => {
    const r = await read('quotes', { symbol: 'nosuch', exchange: 'NSE' });
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(/^Symbol 'NOSUCH' not found for exchange 'NSE'/);
  });
});

describe('authentication', () => {
  const bodies: [string, Record<string, unknown>][] = [
    ['/api/v1/ping', {}],
    ['/api/v1/intervals', {}],
    ['/api/v1/analyzer', {}],
    ['/api/v1/depth', { symbol: 'SBIN', exchange: 'NSE' }],
    ['/api/v1/quotes', { symbol: 'SBIN', exchange: 'NSE' }],
    ['/api/v1/multiquotes', { symbols: [{ symbol: 'SBIN', exchange: 'NSE' }] }],
    ['/api/v1/symbol', { symbol: 'SBIN', exchange: 'NSE' }],
    ['/api/v1/search', { query: 'SBIN' }],
    ['/api/v1/expiry', { symbol: 'NIFTY', exchange: 'NFO', instrumenttype: 'options' }],
    [
      '/api/v1/history',
      { symbol: 'SBIN', exchange: 'NSE', interval: 'D', start_date: '2026-11-01', end_date: '2026-11-20' },
    ],
  ];

  it.each(bodies)('%s: a bad key is 403 Invalid openalgo apikey', async (path, body) => {
    const r = await gw.post(path, { ...body, apikey: 'f'.repeat(64) });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ status: 'error', message: 'Invalid openalgo apikey' });
    expectExact(ErrorBody, r.json);
  });

  it.each(bodies)('%s: a missing key is 400 naming apikey', async (path, body) => {
    const r = await gw.post(path, body);
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(/apikey/);
  });

  it('ticker: a bad key is 403 (header and query)', async () => {
    const h = await gw.get('/api/v1/ticker/NSE:SBIN?interval=D&from=2026-11-01', { 'X-API-KEY': 'nope' });
    expect(h.status).toBe(403);
    expect(h.json).toEqual({ status: 'error', message: 'Invalid openalgo apikey' });
    const q = await gw.get('/api/v1/ticker/NSE:SBIN?interval=D&from=2026-11-01&apikey=nope');
    expect(q.status).toBe(403);
  });

  it('validation errors win over auth errors', async () => {
    const r = await gw.post('/api/v1/depth', { apikey: 'nope', symbol: 'SBIN', exchange: 'nse' });
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(/^exchange must be one of/);
  });
});
