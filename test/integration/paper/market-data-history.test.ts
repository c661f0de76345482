// The history endpoint of the paper gateway over real HTTP (§9.4).
import { describe, expect, it } from 'vitest';
import { ErrorBody, HistoryResponse } from '../../../src-main/contract/index.js';
import { expectExact } from '../../support/exact.js';
import { useTestGateway } from '../../support/paper-gateway.js';
import { isInt } from './market-data-fixture.js';

const gw = useTestGateway();

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
