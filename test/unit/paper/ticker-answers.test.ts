// The paper gateway's ticker answers, pinned: the bytes of a few answers (JSON and text, sub-minute
// bars over a month of sessions, 45 s bars past MCX's 23:55 close, an option's 10 s bars) and some of
// their bars' values. The hash values were taken from the bar builder before its session-only scan,
// so a faster builder is shown to answer exactly as the full scan did. Beside them, bars built with
// a calendar equal the calendar-free bars kept where they start inside the session, after a
// setPrice as well (the per-second transform path).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperGateway, type PaperGateway } from '../../../src-main/paper/gateway.js';
import { ManualClock } from '../../../src-main/paper/market/index.js';
import type { BarInterval } from '../../../src-main/paper/market/market.js';
import { barCalendar } from '../../../src-main/paper/market/sessions.js';
import { istDay, istDayStart } from '../../../src-main/paper/market/time.js';

const NOW = Date.parse('2026-11-20T15:30:00+05:30');
let gw: PaperGateway;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ticker-answers-'));
  gw = await startPaperGateway({
    dataDir,
    clock: new ManualClock(NOW),
    rateLimits: { api: 1e6, ticker: 1e6 },
    extensions: [],
  });
});
afterAll(async () => {
  await gw.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function ticker(pair: string, query: string): Promise<string> {
  const res = await fetch(`${gw.url}/api/v1/ticker/${pair}?${query}`, {
    headers: { 'X-API-KEY': gw.apiKey ?? '' },
  });
  const text = await res.text();
  expect(res.status, text.slice(0, 200)).toBe(200);
  return text;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe("the ticker's answers stay as they were", () => {
  it('30 days of SBIN 5 s bars in JSON: the same bytes, bars and values', async () => {
    const text = await ticker('NSE:SBIN', 'interval=5s&from=2026-10-22&to=2026-11-20&format=json');
    const bars = (JSON.parse(text) as { data: Record<string, number>[] }).data;
    expect(bars).toHaveLength(101_161);
    expect(bars[0]).toEqual({
      timestamp: 1_792_640_700,
      open: 1038.9,
      high: 1038.9,
      low: 1038.85,
      close: 1038.85,
      volume: 1321,
    });
    expect(bars[50_000]).toEqual({
      timestamp: 1_793_939_200,
      open: 1015.5,
      high: 1015.6,
      low: 1015.5,
      close: 1015.6,
      volume: 3759,
    });
    expect(bars.at(-1)).toEqual({
      timestamp: 1_795_168_800,
      open: 903.9,
      high: 903.9,
      low: 903.9,
      close: 903.9,
      volume: 68,
    });
    expect(sha256(text)).toBe('4153c37ac1b232e322e372e31d633f4cd4312da7be59f7e816ae415fe7336e3c');
  });

  it('the same bars as text, and 1 s, 15 s and 30 s bars over a week', async () => {
    const txt = await ticker('NSE:SBIN', 'interval=5s&from=2026-10-22&to=2026-11-20&format=txt');
    expect(sha256(txt)).toBe('7b2eda45df3268703c42c49b447d5868926d7aa727d3347f3f5808bdfcfef531');
    const week: string[] = [];
    for (const interval of ['1s', '15s', '30s'])
      week.push(sha256(await ticker('NSE:SBIN', `interval=${interval}&from=2026-11-13&to=2026-11-20`)));
    expect(week).toEqual([
      '6b891648f37cdc0bf7f8bb26e11ecc0d205330595f2627306f7a765e0da7be96',
      'c2b1d4435afd8839e91ed628313ecd4aa1a05a017e2636923546691064aef775',
      '3822e625bb670b7a71e3dc8e68f14c197ce41e6ecac20553aa96bc471b161d6c',
    ]);
  });

  it("45 s bars of an MCX future, whose 23:55 close is not on the bars' grid", async () => {
    const text = await ticker('MCX:CRUDEOIL18DEC26FUT', 'interval=45s&from=2026-11-16&to=2026-11-20');
    expect(sha256(text)).toBe('91eb64ed2dd7bb0e6cc66cac8e98d094a9b980503a8b9fd8c9f2175ae320015e');
  });

  it("10 s bars of a NIFTY option, a day's 1 m bars and ten years of D bars", async () => {
    const strikes = gw.master.all.filter(
      (i) => i.exchange === 'NFO' && i.kind === 'CE' && i.symbol.startsWith('NIFTY29DEC26'),
    );
    const option = strikes[Math.floor(strikes.length / 2)]!;
    const hashes = [
      sha256(await ticker(`NFO:${option.symbol}`, 'interval=10s&from=2026-11-18&to=2026-11-20')),
      sha256(await ticker('NSE:SBIN', 'interval=1m&from=2026-11-19&to=2026-11-20')),
      sha256(await ticker('NSE:SBIN', 'interval=D&from=2016-11-20&to=2026-11-20')),
    ];
    expect({ option: option.symbol, hashes }).toEqual({
      option: 'NIFTY29DEC2625850CE',
      hashes: [
        'ceede0a35aa4ce0f8734fc1afd9bea9a5fffcd3fc4d9607dd1b96861ec9424d8',
        '02165c430370e603766f74879d7725917fda8fa20f89e8177ec73e9ffc4173bd',
        '66d3b2ec392b65e30bedbf03842cc73d28ebaf545cb1e7b68957a5e2d71a588b',
      ],
    });
  });
});

describe('sub-minute bars with a calendar', () => {
  it('are the calendar-free bars that start inside a session, after a setPrice too', () => {
    const { market, master } = gw;
    const nowSec = Math.floor(NOW / 1000);
    const cases: [string, string, BarInterval][] = [
      ['NSE', 'SBIN', '5s'],
      ['MCX', 'CRUDEOIL18DEC26FUT', '45s'],
    ];
    // A setPrice a minute ago: the bars after it map every second rather than every bucket.
    market.setPrice(master.get('NSE', 'SBIN')!, 812.35);
    const from = istDayStart(istDay(nowSec) - 2);
    for (const [exchange, symbol, interval] of cases) {
      const inst = master.get(exchange, symbol)!;
      for (const hours of ['clock', 'exchange'] as const) {
        const calendar = barCalendar(exchange, hours, nowSec);
        const withCalendar = market.bars(inst, interval, from, nowSec, { calendar });
        const inSession = market.bars(inst, interval, from, nowSec).filter((b) => {
          const s = calendar.session(istDay(b.time));
          const off = b.time - istDayStart(istDay(b.time));
          return s !== null && off >= s.startSec && off < s.endSec;
        });
        expect(withCalendar.length, `${symbol} ${interval} ${hours}`).toBeGreaterThan(1000);
        expect(withCalendar, `${symbol} ${interval} ${hours}`).toEqual(inSession);
      }
    }
  });
});
