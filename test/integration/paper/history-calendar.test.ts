// History follows the exchange calendar (issue 11): past days carry bars only inside their
// exchange's session — no weekend or holiday candles, NSE 09:15-15:30, CDS 09:00-17:00, MCX 09:00 to
// 23:30/23:55 (its evening only on an equity holiday) — minute-multiple bars anchored at the open,
// W bars folded from trading days only; today stays open around the clock unless `hours: 'exchange'`.
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../../src-main/paper/cli.js';
import { useTestGateway, type TestGateway } from '../../support/paper-gateway.js';

const clockGw = useTestGateway();
const exchangeGw = useTestGateway({ hours: 'exchange' });

interface Row {
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

const ist = (date: string, hhmm = '00:00') => Date.parse(`${date}T${hhmm}:00+05:30`) / 1000;
/** A daily (D, W, M) bar's stamp: 00:00 UTC of its date, as the live server stamps it. */
const utcDate = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

async function history(
  gw: TestGateway,
  symbol: string,
  exchange: string,
  interval: string,
  from: string,
  to = from,
) {
  const r = await gw.api('history', gw.apiKey, {
    symbol,
    exchange,
    interval,
    start_date: from,
    end_date: to,
  });
  expect(r.status, r.text.slice(0, 200)).toBe(200);
  return r.body['data'] as Row[];
}

describe('past days', () => {
  it('no bar on a weekend or an NSE holiday, for cash, index and options alike', async () => {
    for (const date of ['2026-11-14', '2026-11-15', '2026-11-10', '2026-10-02']) {
      expect(await history(clockGw, 'SBIN', 'NSE', '1m', date), date).toEqual([]);
      expect(await history(clockGw, 'NIFTY', 'NSE_INDEX', '5m', date), date).toEqual([]);
    }
    const opt = clockGw.gateway.master.derivatives('NFO', 'NIFTY').find((r) => r.kind === 'CE');
    expect(await history(clockGw, opt?.symbol ?? '', 'NFO', '15m', '2026-11-14')).toEqual([]);
  });

  it('NSE: 375 one-minute bars from 09:15 to 15:29', async () => {
    const bars = await history(clockGw, 'SBIN', 'NSE', '1m', '2026-11-19');
    expect(bars).toHaveLength(375);
    expect(bars[0]?.timestamp).toBe(ist('2026-11-19', '09:15'));
    expect(bars.at(-1)?.timestamp).toBe(ist('2026-11-19', '15:29'));
  });

  it('CDS trades 09:00-17:00 and MCX 09:00-23:55 in November', async () => {
    const fut = (ex: string) =>
      clockGw.gateway.master.all.find(
        (r) => r.exchange === ex && r.kind === 'FUT' && (r.expiryDate ?? '') > '2026-12-01',
      );
    const cds = await history(clockGw, fut('CDS')?.symbol ?? '', 'CDS', '1m', '2026-11-19');
    expect([cds.length, cds[0]?.timestamp, cds.at(-1)?.timestamp]).toEqual([
      480,
      ist('2026-11-19', '09:00'),
      ist('2026-11-19', '16:59'),
    ]);
    const mcx = await history(clockGw, fut('MCX')?.symbol ?? '', 'MCX', '15m', '2026-11-19');
    expect([mcx.length, mcx[0]?.timestamp, mcx.at(-1)?.timestamp]).toEqual([
      60, // 09:00 to 23:55: 59 full quarters and a last 10-minute one
      ist('2026-11-19', '09:00'),
      ist('2026-11-19', '23:45'),
    ]);
    // 10-Nov (Diwali-Balipratipada): NSE shut, MCX trades its evening session only.
    const eve = await history(clockGw, fut('MCX')?.symbol ?? '', 'MCX', '1h', '2026-11-10');
    expect(eve[0]?.timestamp).toBe(ist('2026-11-10', '17:00'));
    expect(eve).toHaveLength(7);
  });

  it('minute multiples are anchored at the open and fold exactly the session minutes', async () => {
    const one = await history(clockGw, 'SBIN', 'NSE', '1m', '2026-11-18');
    const hour = await history(clockGw, 'SBIN', 'NSE', '1h', '2026-11-18');
    expect(hour.map((b) => b.timestamp)).toEqual(
      ['09:15', '10:15', '11:15', '12:15', '13:15', '14:15', '15:15'].map((t) => ist('2026-11-18', t)),
    );
    for (const h of hour) {
      const part = one.filter((b) => b.timestamp >= h.timestamp && b.timestamp < h.timestamp + 3600);
      expect(h.open).toBe(part[0]?.open);
      expect(h.close).toBe(part.at(-1)?.close);
      expect(h.high).toBe(Math.max(...part.map((b) => b.high)));
      expect(h.low).toBe(Math.min(...part.map((b) => b.low)));
      expect(h.volume).toBe(part.reduce((a, b) => a + b.volume, 0));
    }
  });

  it('a W bar folds its trading days only (the D bars of that week)', async () => {
    const days = await history(clockGw, 'SBIN', 'NSE', 'D', '2026-11-09', '2026-11-15');
    expect(days.map((d) => d.timestamp)).toEqual(
      ['2026-11-09', '2026-11-11', '2026-11-12', '2026-11-13'].map(utcDate),
    );
    const week = (await history(clockGw, 'SBIN', 'NSE', 'W', '2026-11-09', '2026-11-15'))[0];
    expect(week?.timestamp).toBe(utcDate('2026-11-09'));
    expect(week?.open).toBe(days[0]?.open);
    expect(week?.close).toBe(days.at(-1)?.close);
    expect(week?.high).toBe(Math.max(...days.map((d) => d.high)));
    expect(week?.low).toBe(Math.min(...days.map((d) => d.low)));
  });
});

describe('today', () => {
  it('is open around the clock by default: 1m bars from midnight to now (10:00 IST)', async () => {
    const bars = await history(clockGw, 'SBIN', 'NSE', '1m', '2026-11-20');
    expect(bars[0]?.timestamp).toBe(ist('2026-11-20', '00:00'));
    expect(bars.at(-1)?.timestamp).toBe(ist('2026-11-20', '10:00'));
  });

  it("with hours 'exchange' today follows the session too", async () => {
    const bars = await history(exchangeGw, 'SBIN', 'NSE', '1m', '2026-11-20');
    expect(bars[0]?.timestamp).toBe(ist('2026-11-20', '09:15'));
    expect(bars.at(-1)?.timestamp).toBe(ist('2026-11-20', '10:00'));
    expect(bars).toHaveLength(46);
    const r = await exchangeGw.get(`/api/v1/ticker/NSE:SBIN?interval=5m&from=2026-11-20&to=2026-11-20`, {
      'X-API-KEY': exchangeGw.apiKey,
    });
    const ticker = (r.body['data'] as Row[]).map((b) => b.timestamp);
    expect(ticker[0]).toBe(ist('2026-11-20', '09:15'));
  });

  it('--hours is a CLI setting: clock by default, exchange on request, anything else refused', () => {
    expect(parseCli([]).hours).toBe('clock');
    expect(parseCli(['--hours', 'exchange']).hours).toBe('exchange');
    expect(() => parseCli(['--hours', 'night'])).toThrow('--hours must be clock or exchange, got "night"');
  });
});
