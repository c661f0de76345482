// The symbol and search endpoints of the paper gateway over real HTTP, checked against the contract
// schemas and exact JSON types.
import { describe, expect, it } from 'vitest';
import { SearchResponse, SymbolResponse } from '../../../src-main/contract/index.js';
import { expectExact } from '../../support/exact.js';
import { useTestGateway } from '../../support/paper-gateway.js';
import { isInt, isNum, type SearchRow } from './market-data-fixture.js';

const gw = useTestGateway();

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
