// GET /api/v1/ticker (spec §4.19) over real HTTP: every interval, both date forms, clamping, sort,
// adjusted, key in header or query, default ticker, txt lines and plain-text errors.
import { describe, expect, it } from 'vitest';
import { TICKER_INTERVALS, TickerResponse } from '../../../src-main/contract/index.js';
import type { Instrument } from '../../../src-main/paper/instruments/instrument.js';
import { expectExact } from '../../support/exact.js';
import { useTestGateway } from '../../support/paper-gateway.js';

const gw = useTestGateway();

interface Bar {
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}
const DAY = 86_400;
const istMidnight = (d: string) => Date.parse(`${d}T00:00:00+05:30`) / 1000;
/** A daily bar's stamp: 00:00 UTC of its date, as the live server stamps it. */
const utcDate = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;

async function bars(path: string): Promise<Bar[]> {
  const r = await gw.get(path, { 'X-API-KEY': gw.apiKey });
  expect(r.status, r.text.slice(0, 200)).toBe(200);
  expectExact(TickerResponse, r.json);
  return r.body['data'] as Bar[];
}

describe('JSON', () => {
  it.each(TICKER_INTERVALS)('interval %s gives aligned, typed bars', async (interval) => {
    const from = ['D', 'W', 'M'].includes(interval) ? '2026-01-01' : '2026-11-20';
    const data = await bars(`/api/v1/ticker/NSE:SBIN?interval=${interval}&from=${from}&to=2026-11-20`);
    expect(data.length).toBeGreaterThan(0);
    for (const b of data.slice(0, 50)) {
      expect(Object.keys(b).sort()).toEqual(['close', 'high', 'low', 'open', 'timestamp', 'volume']);
      expect(Number.isInteger(b.timestamp)).toBe(true);
      expect(Number.isInteger(b.volume)).toBe(true);
      expect(b.high).toBeGreaterThanOrEqual(Math.max(b.open, b.close));
      expect(b.low).toBeLessThanOrEqual(Math.min(b.open, b.close));
    }
    const ts = data.map((b) => b.timestamp);
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
    expect(ts[0]!).toBeGreaterThanOrEqual(istMidnight(from) - 31 * DAY);
    expect(ts.at(-1)!).toBeLessThanOrEqual(gw.clock.now() / 1000);
  });

  it('D bars are stamped 00:00 UTC of their date, on trading days only', async () => {
    const data = await bars('/api/v1/ticker/NSE:SBIN?interval=D&from=2026-11-01&to=2026-11-10');
    // 1-Nov is a Sunday, 7/8-Nov a weekend, 10-Nov an NSE holiday (Diwali-Balipratipada).
    expect(data.map((b) => b.timestamp)).toEqual(
      ['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06', '2026-11-09'].map(utcDate),
    );
    for (const b of data) expect(b.timestamp % DAY).toBe(0);
  });

  it('`to` as a date includes the whole day: its session, hourly bars anchored at 09:15', async () => {
    const data = await bars('/api/v1/ticker/NSE:SBIN?interval=1h&from=2026-11-18&to=2026-11-18');
    expect(data).toHaveLength(7);
    expect(data[0]!.timestamp).toBe(istMidnight('2026-11-18') + 9 * 3600 + 15 * 60);
    expect(data.at(-1)!.timestamp).toBe(istMidnight('2026-11-18') + 15 * 3600 + 15 * 60);
  });

  it('date and millisecond-timestamp bounds give the same bars', async () => {
    const fromMs = istMidnight('2026-11-10') * 1000;
    const toMs = (istMidnight('2026-11-13') + DAY) * 1000 - 1;
    const byDate = await bars('/api/v1/ticker/NSE:SBIN?interval=15m&from=2026-11-10&to=2026-11-13');
    const byMs = await bars(`/api/v1/ticker/NSE:SBIN?interval=15m&from=${fromMs}&to=${toMs}`);
    expect(byMs.length).toBeGreaterThan(0);
    expect(byMs).toEqual(byDate);
  });

  it.each([
    ['from', 'from=1763577000&to=2026-11-20'],
    ['to', 'from=2026-11-01&to=1763577000'],
  ])(
    'a 10-digit (seconds) timestamp in %s is 400 saying milliseconds or a date is expected',
    async (field, q) => {
      const message = `${field}: must be a date (YYYY-MM-DD) or a timestamp in milliseconds (13 digits; 10 would be seconds)`;
      const json = await gw.get(`/api/v1/ticker/NSE:SBIN?interval=D&${q}`, { 'X-API-KEY': gw.apiKey });
      expect(json.status).toBe(400);
      expect(json.json).toEqual({ status: 'error', message });
      const txt = await gw.get(`/api/v1/ticker/NSE:SBIN?interval=D&${q}&format=txt`, {
        'X-API-KEY': gw.apiKey,
      });
      expect([txt.status, txt.text]).toEqual([400, message]);
    },
  );

  it('clamps 40 days of 1m to 30 days before `to`', async () => {
    const data = await bars('/api/v1/ticker/NSE:SBIN?interval=1m&from=2026-10-01&to=2026-11-10');
    const end = istMidnight('2026-11-10') + DAY;
    expect(data[0]!.timestamp).toBeGreaterThanOrEqual(end - 30 * DAY);
    expect(data[0]!.timestamp).toBeLessThan(end - 29 * DAY);
  });

  it('clamps 12 years of D to 3650 days before `to`', async () => {
    const data = await bars('/api/v1/ticker/NSE:SBIN?interval=D&from=2014-11-20&to=2026-11-20');
    const end = istMidnight('2026-11-20') + DAY;
    expect(data[0]!.timestamp).toBeGreaterThanOrEqual(end - 3650 * DAY);
    expect(data[0]!.timestamp).toBeLessThan(end - 3640 * DAY);
  });

  it('missing `from` means as far back as allowed; missing `to` means now', async () => {
    const data = await bars('/api/v1/ticker/NSE:SBIN?interval=D');
    const now = gw.clock.now() / 1000;
    expect(data[0]!.timestamp).toBeGreaterThanOrEqual(now - 3650 * DAY);
    expect(data[0]!.timestamp).toBeLessThan(now - 3640 * DAY);
    expect(data.at(-1)!.timestamp).toBe(utcDate('2026-11-20'));
  });

  it('sort=desc is the reverse of asc', async () => {
    const q = 'interval=5m&from=2026-11-19&to=2026-11-19';
    const asc = await bars(`/api/v1/ticker/NSE:SBIN?${q}`);
    const desc = await bars(`/api/v1/ticker/NSE:SBIN?${q}&sort=desc`);
    expect(desc).toEqual([...asc].reverse());
  });

  it('adjusted=false differs before a split and agrees after it', async () => {
    const market = gw.gateway.market;
    const split = gw.gateway.master.all.find(
      (i: Instrument) => i.kind === 'EQ' && market.corporateActions(i).length > 0,
    );
    expect(split, 'the seeded master has an equity with a split').toBeDefined();
    const inst = split!;
    const action = market.corporateActions(inst)[0]!;
    const path = `/api/v1/ticker/${inst.exchange}:${encodeURIComponent(inst.symbol)}?interval=D&from=2016-11-25&to=2026-11-20`;
    const adj = await bars(path);
    const raw = await bars(`${path}&adjusted=false`);
    expect(raw).toHaveLength(adj.length);
    const before = adj.findIndex((b) => b.timestamp < action.time);
    expect(before).toBeGreaterThanOrEqual(0);
    expect(raw[before]!.close).not.toBe(adj[before]!.close);
    expect(raw.at(-1)).toEqual(adj.at(-1));
  });
});

describe('ticker path and key', () => {
  it('key in header or query gives the same answer', async () => {
    const q = '/api/v1/ticker/NSE:SBIN?interval=D&from=2026-11-01&to=2026-11-10';
    const h = await gw.get(q, { 'X-API-KEY': gw.apiKey });
    const p = await gw.get(`${q}&apikey=${gw.apiKey}`);
    expect(h.status).toBe(200);
    expect(p.text).toBe(h.text);
  });

  it('no key at all is 400 naming both places', async () => {
    const r = await gw.get('/api/v1/ticker/NSE:SBIN?interval=D');
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(/apikey.*X-API-KEY/);
  });

  it.each(['/api/v1/ticker', '/api/v1/ticker/'])('%s defaults to NSE:RELIANCE', async (path) => {
    const r = await gw.get(`${path}?interval=D&from=2026-11-01&to=2026-11-05&format=txt`, {
      'X-API-KEY': gw.apiKey,
    });
    expect(r.status).toBe(200);
    // 1-Nov-2026 is a Sunday: the first bar is Monday's.
    expect(r.text.split('\n')[0]).toMatch(/^NSE:RELIANCE,2026-11-02,/);
  });

  it('a missing exchange part means NSE', async () => {
    const a = await gw.get('/api/v1/ticker/SBIN?interval=D&from=2026-11-01&to=2026-11-05', {
      'X-API-KEY': gw.apiKey,
    });
    const b = await gw.get('/api/v1/ticker/NSE:SBIN?interval=D&from=2026-11-01&to=2026-11-05', {
      'X-API-KEY': gw.apiKey,
    });
    expect(a.status).toBe(200);
    expect(a.text).toBe(b.text);
  });

  it('an unknown symbol is 404', async () => {
    const r = await gw.get('/api/v1/ticker/NSE:FOO?interval=D', { 'X-API-KEY': gw.apiKey });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ status: 'error', message: 'Symbol FOO not found in exchange NSE' });
  });

  it.each([
    ['interval=7m', /^interval must be one of/],
    ['from=2026-13-01', /^from is not a valid date/],
    ['from=yesterday', /^from/],
    ['sort=up', /^sort must be asc or desc/],
    ['adjusted=maybe', /^adjusted must be true or false/],
    ['format=csv', /^format must be json or txt/],
    ['from=2026-11-10&to=2026-11-01', /^from must not be after to/],
  ])('%s is 400', async (q, message) => {
    const r = await gw.get(`/api/v1/ticker/NSE:SBIN?${q}`, { 'X-API-KEY': gw.apiKey });
    expect(r.status).toBe(400);
    expect(r.body['status']).toBe('error');
    expect(r.body['message']).toMatch(message);
  });

  it('a bad exchange in the path is 400', async () => {
    const r = await gw.get('/api/v1/ticker/XYZ:SBIN', { 'X-API-KEY': gw.apiKey });
    expect(r.status).toBe(400);
    expect(r.body['message']).toMatch(/^exchange must be one of/);
  });
});

describe('format=txt', () => {
  it('D lines: Ticker,Date,O,H,L,C,V, no header, no trailing newline', async () => {
    const r = await gw.get('/api/v1/ticker/NSE:SBIN?interval=D&from=2026-11-01&to=2026-11-20&format=txt', {
      'X-API-KEY': gw.apiKey,
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(r.text.endsWith('\n')).toBe(false);
    const lines = r.text.split('\n');
    // 14 trading days: weekends and 10-Nov (an NSE holiday) have no bar.
    expect(lines).toHaveLength(14);
    for (const l of lines) expect(l).toMatch(/^NSE:SBIN,2026-11-\d{2},[\d.]+,[\d.]+,[\d.]+,[\d.]+,\d+$/);
    expect(lines[0]).toMatch(/^NSE:SBIN,2026-11-02,/);
    expect(lines.some((l) => l.startsWith('NSE:SBIN,2026-11-10,'))).toBe(false);
  });

  it('intraday lines carry IST time and match the JSON bars', async () => {
    const q = '/api/v1/ticker/NSE:SBIN?interval=5m&from=2026-11-19&to=2026-11-19';
    const r = await gw.get(`${q}&format=txt`, { 'X-API-KEY': gw.apiKey });
    const json = await bars(q);
    const lines = r.text.split('\n');
    expect(lines).toHaveLength(json.length);
    for (const l of lines)
      expect(l).toMatch(/^NSE:SBIN,2026-11-19,\d{2}:\d{2}:00,[\d.]+,[\d.]+,[\d.]+,[\d.]+,\d+$/);
    // A past day: 09:15 to 15:25, 75 five-minute bars.
    expect(lines).toHaveLength(75);
    expect(lines.at(-1)!.startsWith('NSE:SBIN,2026-11-19,15:25:00,')).toBe(true);
    const b = json[0]!; // 09:15 IST
    expect(lines[0]).toBe(`NSE:SBIN,2026-11-19,09:15:00,${b.open},${b.high},${b.low},${b.close},${b.volume}`);
  });

  it('W and M lines carry a time column too', async () => {
    const r = await gw.get('/api/v1/ticker/NSE:SBIN?interval=W&from=2026-10-01&to=2026-11-20&format=txt', {
      'X-API-KEY': gw.apiKey,
    });
    for (const l of r.text.split('\n')) expect(l).toMatch(/^NSE:SBIN,\d{4}-\d{2}-\d{2},00:00:00,/);
  });

  it('errors are plain text with the same status', async () => {
    const bad = await gw.get('/api/v1/ticker/NSE:SBIN?interval=D&format=txt&apikey=nope');
    expect(bad.status).toBe(403);
    expect(bad.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(bad.text).toBe('Invalid openalgo apikey');
    const missing = await gw.get('/api/v1/ticker/NSE:FOO?interval=D&format=txt', { 'X-API-KEY': gw.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('Symbol FOO not found in exchange NSE');
    const invalid = await gw.get('/api/v1/ticker/NSE:SBIN?interval=9m&format=txt', {
      'X-API-KEY': gw.apiKey,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toMatch(/^interval must be one of/);
  });
});
