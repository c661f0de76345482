// Market-data endpoints of the paper gateway over real HTTP: ping, intervals, analyzer, depth, quotes
// and multiquotes checked against the contract schemas and exact JSON types, symbols upper-cased on
// every endpoint, and 403 on every endpoint without a valid key.
import { describe, expect, it } from 'vitest';
import {
  AnalyzerResponse,
  DepthResponse,
  ErrorBody,
  IntervalsResponse,
  MultiQuotesResponse,
  PingResponse,
  QuotesResponse,
} from '../../../src-main/contract/index.js';
import { expectExact } from '../../support/exact.js';
import { useTestGateway } from '../../support/paper-gateway.js';
import { isInt, isNum } from './market-data-fixture.js';

const gw = useTestGateway();

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
