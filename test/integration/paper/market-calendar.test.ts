// instruments (JSON and CSV), market/holidays and market/timings over real HTTP, and the calendar's
// effect on expiries: a contract due on an exchange holiday expires the trading day before.
import { describe, expect, it } from 'vitest';
import {
  ExpiryResponse,
  InstrumentsResponse,
  MarketHolidaysResponse,
  MarketTimingsResponse,
} from '../../../src-main/contract/index.js';
import { expectExact } from '../../support/exact.js';
import { useTestGateway } from '../../support/paper-gateway.js';

const gw = useTestGateway();

/** Epoch ms of an IST wall-clock time. */
const ist = (date: string, hhmm: string) => Date.parse(`${date}T${hhmm}:00+05:30`);

describe('market/timings', () => {
  it('a trading day: each exchange its own hours, in epoch ms', async () => {
    const r = await gw.api('market/timings', gw.apiKey, { date: '2026-11-20' });
    expect(r.status).toBe(200);
    const body = expectExact(MarketTimingsResponse, r.json);
    const d = '2026-11-20';
    const eq = { start_time: ist(d, '09:15'), end_time: ist(d, '15:30') };
    const cur = { start_time: ist(d, '09:00'), end_time: ist(d, '17:00') };
    expect(body.data).toEqual([
      { exchange: 'NSE', ...eq },
      { exchange: 'BSE', ...eq },
      { exchange: 'NFO', ...eq },
      { exchange: 'BFO', ...eq },
      { exchange: 'CDS', ...cur },
      { exchange: 'BCD', ...cur },
      // November: the US is off daylight time, so MCX runs to 23:55.
      { exchange: 'MCX', start_time: ist(d, '09:00'), end_time: ist(d, '23:55') },
    ]);
  });

  it('MCX closes at 23:30 while the US is on daylight time', async () => {
    const r = await gw.api('market/timings', gw.apiKey, { date: '2026-07-15' });
    const mcx = (r.body['data'] as { exchange: string; end_time: number }[]).find(
      (x) => x.exchange === 'MCX',
    );
    expect(mcx?.end_time).toBe(ist('2026-07-15', '23:30'));
  });

  it('weekends and full holidays are empty; a partial holiday keeps the MCX evening', async () => {
    for (const date of ['2026-11-21', '2026-11-22', '2026-12-25', '2026-01-26']) {
      const r = await gw.api('market/timings', gw.apiKey, { date });
      expect([date, r.status, r.body['data']]).toEqual([date, 200, []]);
    }
    const gurpurb = await gw.api('market/timings', gw.apiKey, { date: '2026-11-24' });
    expect(gurpurb.body['data']).toEqual([
      { exchange: 'MCX', start_time: ist('2026-11-24', '17:00'), end_time: ist('2026-11-24', '23:55') },
    ]);
  });

  it('refuses a missing, malformed or impossible date', async () => {
    const msg = async (fields: Record<string, unknown>) => {
      const r = await gw.api('market/timings', gw.apiKey, fields);
      return [r.status, r.body['message']];
    };
    expect(await msg({})).toEqual([400, 'date is required']);
    expect(await msg({ date: '20-11-2026' })).toEqual([400, 'date must be YYYY-MM-DD']);
    expect(await msg({ date: '2026-02-30' })).toEqual([400, 'date must be a real calendar date']);
    expect(await msg({ date: '2051-01-01' })).toEqual([
      400,
      'date must be between 2020-01-01 and 2050-12-31',
    ]);
  });
});

describe('market/holidays', () => {
  it("the year's published list, current year by default, with MCX's special sessions", async () => {
    const r = await gw.api('market/holidays', gw.apiKey);
    expect(r.status).toBe(200);
    const body = expectExact(MarketHolidaysResponse, r.json);
    expect(body).toMatchObject({ year: 2026, timezone: 'Asia/Kolkata' });
    expect(body.data.map((h) => h.date)).toContain('2026-11-24');
    expect(body.data.find((h) => h.date === '2026-01-26')).toEqual({
      date: '2026-01-26',
      description: 'Republic Day',
      holiday_type: 'TRADING_HOLIDAY',
      closed_exchanges: ['NSE', 'BSE', 'NFO', 'BFO', 'CDS', 'BCD', 'MCX'],
      open_exchanges: [],
    });
    expect(body.data.find((h) => h.date === '2026-03-03')?.open_exchanges).toEqual([
      // March 3: before US daylight time starts (March 8), so 23:55.
      { exchange: 'MCX', start_time: ist('2026-03-03', '17:00'), end_time: ist('2026-03-03', '23:55') },
    ]);
    // No holiday on a weekend is listed: weekends are closed anyway.
    expect(body.data.every((h) => ![0, 6].includes(new Date(`${h.date}T00:00:00Z`).getUTCDay()))).toBe(true);
  });

  it('a year without a list says so instead of an unexplained empty list', async () => {
    const r = await gw.api('market/holidays', gw.apiKey, { year: 2027 });
    expect(r.status).toBe(200);
    expect(r.body['data']).toEqual([]);
    expect(r.body['message']).toMatch(/No holiday list for 2027/);
    const bad = await gw.api('market/holidays', gw.apiKey, { year: 2019 });
    expect([bad.status, bad.body['message']]).toEqual([400, 'year must be between 2020 and 2050']);
  });
});

describe('expiries follow the calendar', () => {
  it('the NIFTY weekly and monthly due on Tuesday 24-Nov (a holiday) expire Monday 23-Nov', async () => {
    const r = await gw.api('expiry', gw.apiKey, {
      symbol: 'NIFTY',
      exchange: 'NFO',
      instrumenttype: 'futures',
    });
    const body = expectExact(ExpiryResponse, r.json);
    expect(body.data[0]).toBe('23-NOV-26');
    expect(body.data).not.toContain('24-NOV-26');
    expect(gw.gateway.master.get('NFO', 'NIFTY23NOV26FUT')).toBeDefined();
  });
});

describe('instruments', () => {
  it('JSON for one exchange: every row of it in the symbol-record shape', async () => {
    const r = await gw.get(`/api/v1/instruments?apikey=${gw.apiKey}&exchange=CDS`);
    expect(r.status).toBe(200);
    const body = expectExact(InstrumentsResponse, r.json);
    const cds = gw.gateway.master.all.filter((x) => x.exchange === 'CDS');
    expect(body.data).toHaveLength(cds.length);
    expect(body.message).toBe(`Found ${cds.length} instruments`);
    expect(body.data.every((x) => x.exchange === 'CDS')).toBe(true);
  });

  it('CSV with a header row and a download name; the key may come in X-API-KEY', async () => {
    const r = await gw.get('/api/v1/instruments?exchange=MCX&format=csv', { 'X-API-KEY': gw.apiKey });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="instruments_MCX.csv"');
    const lines = r.text.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'symbol,brsymbol,name,exchange,brexchange,token,expiry,strike,lotsize,instrumenttype,tick_size',
    );
    const mcx = gw.gateway.master.all.filter((x) => x.exchange === 'MCX');
    expect(lines).toHaveLength(mcx.length + 1);
    const first = mcx[0];
    expect(lines[1]?.split(',').slice(0, 4)).toEqual([first?.symbol, first?.brsymbol, first?.name, 'MCX']);
  });

  it('refuses a missing or wrong key, an unknown exchange and an unknown format', async () => {
    const none = await gw.get('/api/v1/instruments');
    expect(none.status).toBe(401);
    const wrong = await gw.get('/api/v1/instruments?apikey=wrong');
    expect([wrong.status, wrong.body['message']]).toEqual([403, 'Invalid openalgo apikey']);
    const ex = await gw.get(`/api/v1/instruments?apikey=${gw.apiKey}&exchange=LSE`);
    expect(ex.status).toBe(400);
    const fmt = await gw.get(`/api/v1/instruments?apikey=${gw.apiKey}&format=xml`);
    expect([fmt.status, fmt.body['message']]).toEqual([400, 'format must be json or csv']);
  });
});
