// Property tests: bars at every interval are exact aggregates of finer bars, well-formed, on tick,
// never in the future, extend consistently as time passes, and are deterministic per seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Instrument } from '../../../src-main/paper/instruments/instrument.js';
import type { Bar, BarInterval } from '../../../src-main/paper/market/market.js';
import { intradaySeconds } from '../../../src-main/paper/market/time.js';
import { IST, NIFTY, NIFTY_FUT, SBIN, USDINR_FUT, newMarket, option } from '../../support/market-fixtures.js';

const INSTRUMENTS: readonly Instrument[] = [
  SBIN,
  NIFTY,
  NIFTY_FUT,
  option('CE', 20_000),
  option('PE', 20_000),
  option('CE', 21_000, '2026-11-24'),
  option('PE', 19_000, '2026-11-24'),
  USDINR_FUT,
];

/**
 * Bucket start for `t`, computed independently of the simulator's bucketing (IST = UTC+05:30);
 * only the interval lengths come from the source's table.
 */
function bucketOf(t: number, iv: BarInterval): number {
  const k = intradaySeconds(iv);
  if (k !== null) return Math.floor((t + IST) / k) * k - IST;
  const day = Math.floor((t + IST) / 86_400);
  if (iv === 'D') return day * 86_400 - IST;
  if (iv === 'W') return (day - ((day + 3) % 7)) * 86_400 - IST;
  const d = new Date(day * 86_400_000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000 - IST;
}

/** Start of the bucket after the one starting at `start`. */
function nextBucket(start: number, iv: BarInterval): number {
  const k = intradaySeconds(iv);
  if (k !== null) return start + k;
  if (iv === 'D') return start + 86_400;
  if (iv === 'W') return start + 7 * 86_400;
  return bucketOf(start + 32 * 86_400, 'M');
}

function aggregate(bars: readonly Bar[], iv: BarInterval): Bar[] {
  const out: Bar[] = [];
  for (const b of bars) {
    const t = bucketOf(b.time, iv);
    const cur = out[out.length - 1];
    if (cur && cur.time === t) {
      cur.high = Math.max(cur.high, b.high);
      cur.low = Math.min(cur.low, b.low);
      cur.close = b.close;
      cur.volume += b.volume;
    } else {
      out.push({ ...b, time: t });
    }
  }
  return out;
}

function onTick(price: number, tick: number): boolean {
  const n = price / tick;
  const decimals = tick < 0.01 ? 4 : 2;
  return Math.abs(n - Math.round(n)) < 1e-6 && Number(price.toFixed(decimals)) === price;
}

/** Plain checks collected into one assertion: per-bar expect() calls would dominate run time. */
function checkWellFormed(bars: readonly Bar[], inst: Instrument, nowSec: number): void {
  const problems: string[] = [];
  let prev = -Infinity;
  for (const b of bars) {
    const bad = (why: string): void => void problems.push(`${why}: ${JSON.stringify(b)}`);
    if (!(b.time > prev)) bad('not ascending');
    prev = b.time;
    if (b.time > nowSec) bad('after now');
    if (!(b.low <= Math.min(b.open, b.close) && b.high >= Math.max(b.open, b.close)))
      bad('outside low..high');
    if (!(b.low > 0)) bad('non-positive');
    for (const p of [b.open, b.high, b.low, b.close]) if (!onTick(p, inst.tickSize)) bad(`off tick ${p}`);
    if (!Number.isInteger(b.volume) || b.volume < 0) bad('volume');
    if (inst.kind === 'INDEX' && b.volume !== 0) bad('index volume');
  }
  expect(problems.slice(0, 5)).toEqual([]);
}

const PAIRS: ReadonlyArray<readonly [BarInterval, BarInterval]> = [
  ['1s', '5s'],
  ['1s', '45s'],
  ['1s', '1m'],
  ['5s', '1m'],
  ['15s', '1m'],
  ['1m', '5m'],
  ['1m', '20m'],
  ['1m', '1h'],
  ['1m', '3h'],
  ['1m', '4h'],
  ['1m', 'D'],
  ['5m', 'D'],
  ['D', 'W'],
  ['D', 'M'],
];

const DAY0 = Date.UTC(2024, 0, 1) / 86_400_000;
const DAYS = 3 * 366;

/** "now" near an IST day, week or month boundary, anywhere in 2024-2026. */
const nowArb = fc
  .record({
    day: fc.integer({ min: DAY0, max: DAY0 + DAYS }),
    boundary: fc.constantFrom('day', 'week', 'month'),
    offset: fc.integer({ min: -3 * 3600, max: 3 * 3600 }),
    ms: fc.integer({ min: 0, max: 999 }),
  })
  .map(({ day, boundary, offset, ms }) => {
    const anchor = day * 86_400 - IST;
    const b = boundary === 'day' ? anchor : bucketOf(anchor, boundary === 'week' ? 'W' : 'M');
    return (b + offset) * 1000 + ms;
  });

describe('bars: aggregation consistency (property)', () => {
  it('coarse bars equal the aggregate of finer bars, around boundaries and across now', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: INSTRUMENTS.length - 1 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        nowArb,
        fc.integer({ min: 0, max: PAIRS.length - 1 }),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        (ii, seed, nowMs, pi, back, includeNow) => {
          const inst = INSTRUMENTS[ii] as Instrument;
          const [fine, coarse] = PAIRS[pi] as readonly [BarInterval, BarInterval];
          const { market } = newMarket(seed, nowMs);
          const nowSec = Math.floor(nowMs / 1000);
          // Window: `back` whole coarse buckets before the one holding now (sub-minute: fewer).
          const steps = (intradaySeconds(coarse) ?? Infinity) <= 60 ? back * 3 : back;
          let from = bucketOf(nowSec, coarse);
          for (let i = 0; i < steps; i++) from = bucketOf(from - 1, coarse);
          const to = includeNow ? nowSec + 3600 : bucketOf(nowSec, coarse) - 1;
          const coarseBars = market.bars(inst, coarse, from, to);
          checkWellFormed(coarseBars, inst, nowSec);
          const last = coarseBars[coarseBars.length - 1];
          if (!last) return;
          const fineBars = market.bars(inst, fine, from, nextBucket(last.time, coarse) - 1);
          checkWellFormed(fineBars, inst, nowSec);
          expect(aggregate(fineBars, coarse)).toEqual(coarseBars);
          if (includeNow) {
            expect(last.close).toBe(market.lastPrice(inst));
            expect(fineBars[fineBars.length - 1]?.close).toBe(market.lastPrice(inst));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('no bars start after now, and the bar in progress closes at the last price', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: INSTRUMENTS.length - 1 }),
        nowArb,
        fc.constantFrom<BarInterval>(
          '1s',
          '10s',
          '30s',
          '1m',
          '2m',
          '10m',
          '15m',
          '30m',
          '2h',
          'D',
          'W',
          'M',
        ),
        (ii, nowMs, iv) => {
          const inst = INSTRUMENTS[ii] as Instrument;
          const { market } = newMarket(11, nowMs);
          const nowSec = Math.floor(nowMs / 1000);
          const span = iv === 'M' ? 70 * 86_400 : iv === 'W' || iv === 'D' ? 15 * 86_400 : 3600;
          const bars = market.bars(inst, iv, bucketOf(nowSec, iv) - span, nowSec + 10 * 86_400);
          checkWellFormed(bars, inst, nowSec);
          const last = bars[bars.length - 1];
          expect(last?.time).toBe(bucketOf(nowSec, iv));
          expect(last?.close).toBe(market.lastPrice(inst));
          expect(market.bars(inst, iv, nowSec + 1, nowSec + 86_400)).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('after the clock advances, the bar in progress extends consistently', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: INSTRUMENTS.length - 1 }),
        nowArb,
        fc.constantFrom<BarInterval>('1s', '5s', '1m', '5m', '1h', 'D', 'W'),
        fc.integer({ min: 1, max: 400_000 }),
        (ii, nowMs, iv, stepMs) => {
          const inst = INSTRUMENTS[ii] as Instrument;
          const { market, clock } = newMarket(5, nowMs);
          const nowSec = Math.floor(nowMs / 1000);
          const from = bucketOf(nowSec, iv) - (iv === 'D' || iv === 'W' ? 20 * 86_400 : 1800);
          const before = market.bars(inst, iv, from, nowSec + 86_400);
          clock.advance(stepMs);
          const after = market.bars(inst, iv, from, nowSec + 86_400);
          const live = before[before.length - 1] as Bar;
          // Completed bars never change.
          expect(after.slice(0, before.length - 1)).toEqual(before.slice(0, -1));
          const grown = after[before.length - 1] as Bar;
          expect(grown.time).toBe(live.time);
          expect(grown.open).toBe(live.open);
          expect(grown.high).toBeGreaterThanOrEqual(live.high);
          expect(grown.low).toBeLessThanOrEqual(live.low);
          expect(grown.volume).toBeGreaterThanOrEqual(live.volume);
          checkWellFormed(after, inst, Math.floor(clock.now() / 1000));
          expect(after[after.length - 1]?.close).toBe(market.lastPrice(inst));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('stays consistent across setPrice jumps on any instrument', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: INSTRUMENTS.length - 1 }),
        fc.integer({ min: 0, max: INSTRUMENTS.length - 1 }),
        nowArb,
        fc.double({ min: 0.5, max: 1.5, noNaN: true }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.constantFrom<readonly [BarInterval, BarInterval]>(
          ['1s', '1m'],
          ['5s', '1m'],
          ['1m', '5m'],
          ['1m', 'D'],
        ),
        (ii, si, nowMs, factor, stepMs, [fine, coarse]) => {
          const inst = INSTRUMENTS[ii] as Instrument;
          const moved = INSTRUMENTS[si] as Instrument;
          const { market, clock } = newMarket(13, nowMs);
          const target = Math.max(
            moved.tickSize,
            Math.round((market.lastPrice(moved) * factor) / moved.tickSize) * moved.tickSize,
          );
          market.setPrice(moved, target);
          expect(market.lastPrice(moved)).toBeCloseTo(target, 6);
          clock.advance(stepMs);
          const nowSec = Math.floor(clock.now() / 1000);
          const from = bucketOf(bucketOf(Math.floor(nowMs / 1000), coarse) - 1, coarse);
          const coarseBars = market.bars(inst, coarse, from, nowSec);
          const fineBars = market.bars(inst, fine, from, nowSec);
          checkWellFormed(coarseBars, inst, nowSec);
          checkWellFormed(fineBars, inst, nowSec);
          expect(aggregate(fineBars, coarse)).toEqual(coarseBars);
          expect(coarseBars[coarseBars.length - 1]?.close).toBe(market.lastPrice(inst));
        },
      ),
      { numRuns: 120 },
    );
  });

  it('is deterministic per seed and differs between seeds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: INSTRUMENTS.length - 1 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        nowArb,
        fc.constantFrom<BarInterval>('5s', '1m', 'D'),
        (ii, seed, nowMs, iv) => {
          const inst = INSTRUMENTS[ii] as Instrument;
          const nowSec = Math.floor(nowMs / 1000);
          const from = nowSec - (iv === 'D' ? 10 * 86_400 : 3600);
          const a = newMarket(seed, nowMs).market.bars(inst, iv, from, nowSec);
          const b = newMarket(seed, nowMs).market.bars(inst, iv, from, nowSec);
          const c = newMarket(seed + 1, nowMs).market.bars(inst, iv, from, nowSec);
          expect(b).toEqual(a);
          expect(c).not.toEqual(a);
        },
      ),
      { numRuns: 120 },
    );
  });
});
