// Unit tests for the market simulator: setPrice, splits and adjusted bars, price formatting and
// realism.
import { describe, expect, it } from 'vitest';
import type { Instrument, Underlying } from '../../../src-main/paper/instruments/instrument.js';
import { ManualClock } from '../../../src-main/paper/market/clock.js';
import type { Bar, BarInterval } from '../../../src-main/paper/market/market.js';
import { createMarket } from '../../../src-main/paper/market/simulator.js';
import {
  NIFTY,
  NIFTY_FUT,
  SBIN,
  T0_MS,
  USDINR_FUT,
  atmStrike,
  instrument,
  newMarket,
  option,
} from '../../support/market-fixtures.js';
import { aggregate, decimals, strip, T0, todayStart, YEAR } from './market-sim-fixture.js';

describe('setPrice', () => {
  it('moves an equity: last price, book and bars, keeping bars consistent', () => {
    const { market, clock } = newMarket();
    const before = market.lastPrice(SBIN);
    const target = Math.round(before * 1.04 * 20) / 20;
    market.setPrice(SBIN, target);
    expect(market.lastPrice(SBIN)).toBe(target);
    const book = market.book(SBIN);
    expect(book.asks[0]?.price).toBeGreaterThanOrEqual(target);
    expect(book.bids[0]?.price).toBeLessThanOrEqual(target);
    expect(book.high).toBeGreaterThanOrEqual(target);
    clock.advance(95_000);
    // The new level persists (the path keeps wandering from it).
    expect(Math.abs(market.lastPrice(SBIN) / target - 1)).toBeLessThan(0.01);
    const now = Math.floor(clock.now() / 1000);
    const minuteOfChange = Math.floor(T0 / 60) * 60;
    const secs = market.bars(SBIN, '1s', minuteOfChange - 120, now);
    const mins = market.bars(SBIN, '1m', minuteOfChange - 120, now);
    expect(mins).toHaveLength(4);
    for (const m of mins) {
      expect(aggregate(secs.filter((s) => s.time >= m.time && s.time < m.time + 60))).toEqual(strip(m));
    }
    expect(secs.find((s) => s.time === T0)?.close).toBe(target);
    const day = market.bars(SBIN, 'D', todayStart, now);
    expect(strip(day[0])).toEqual(aggregate(market.bars(SBIN, '1m', todayStart, now)));
    expect(day[0]?.high).toBeGreaterThanOrEqual(target);
  });

  it('moves an index and, coherently, its future and options', () => {
    const { market } = newMarket();
    const k = atmStrike(market);
    const ce = option('CE', k);
    const pe = option('PE', k);
    const [s0, f0, c0, p0] = [NIFTY, NIFTY_FUT, ce, pe].map((i) => market.lastPrice(i)) as [
      number,
      number,
      number,
      number,
    ];
    const target = Math.round(s0 * 1.02 * 20) / 20;
    market.setPrice(NIFTY, target);
    expect(market.lastPrice(NIFTY)).toBe(target);
    expect(market.lastPrice(NIFTY_FUT) / f0).toBeCloseTo(target / s0, 4);
    expect(market.lastPrice(ce)).toBeGreaterThan(c0 + 0.3 * (target - s0));
    expect(market.lastPrice(pe)).toBeLessThan(p0);
  });

  it('sets a future exactly, moving its underlying', () => {
    const { market } = newMarket();
    const s0 = market.lastPrice(NIFTY);
    const target = Math.round(market.lastPrice(NIFTY_FUT) * 0.97 * 20) / 20;
    market.setPrice(NIFTY_FUT, target);
    expect(market.lastPrice(NIFTY_FUT)).toBe(target);
    expect(market.lastPrice(NIFTY) / s0).toBeCloseTo(0.97, 3);
  });

  it('sets an option on its own series, leaving the underlying alone', () => {
    const { market, clock } = newMarket();
    const ce = option('CE', atmStrike(market) + 500);
    const s0 = market.lastPrice(NIFTY);
    market.setPrice(ce, 12.35);
    expect(market.lastPrice(ce)).toBe(12.35);
    expect(market.lastPrice(NIFTY)).toBe(s0);
    clock.advance(61_000);
    const now = Math.floor(clock.now() / 1000);
    const mins = market.bars(ce, '1m', Math.floor(T0 / 60) * 60 - 60, now);
    const secs = market.bars(ce, '1s', Math.floor(T0 / 60) * 60 - 60, now);
    for (const m of mins) {
      expect(aggregate(secs.filter((s) => s.time >= m.time && s.time < m.time + 60))).toEqual(strip(m));
    }
  });

  it('rejects prices below one tick', () => {
    const { market } = newMarket();
    expect(() => market.setPrice(SBIN, 0)).toThrow(RangeError);
  });
});

describe('splits and adjusted bars', () => {
  it('splits about 5% of equities, never indices or derivatives', () => {
    const us = new Map<string, Underlying>();
    const insts: Instrument[] = [];
    for (let i = 0; i < 400; i++) {
      const key = `NSE:STOCK${i}`;
      us.set(key, { key, name: `STOCK${i}`, basePrice: 100 + i, tickSize: 0.05, volatility: 0.3 });
      insts.push(instrument('EQ', 'NSE', `STOCK${i}`, key));
    }
    const market = createMarket({ underlyings: us, clock: new ManualClock(T0_MS), seed: 9 });
    const split = insts.filter((i) => market.corporateActions(i).length > 0);
    expect(split.length).toBeGreaterThanOrEqual(8);
    expect(split.length).toBeLessThanOrEqual(35);
    const all = newMarket(9, T0_MS, 1).market;
    expect(all.corporateActions(NIFTY)).toEqual([]);
    expect(all.corporateActions(NIFTY_FUT)).toEqual([]);
  });

  it('adjusted=false restores pre-split prices (x ratio) and volumes (/ ratio)', () => {
    const { market } = newMarket(9, T0_MS, 1);
    const [ca] = market.corporateActions(SBIN);
    if (!ca) throw new Error('expected a split');
    expect([2, 5]).toContain(ca.ratio);
    expect(ca.time).toBe(Date.parse(`${ca.exDate}T00:00:00+05:30`) / 1000);
    expect(ca.time).toBeLessThan(T0);
    expect(ca.time).toBeGreaterThan(T0 - 10.5 * YEAR);
    const from = ca.time - 10 * 86_400;
    const to = ca.time + 10 * 86_400;
    const adj = market.bars(SBIN, 'D', from, to);
    const raw = market.bars(SBIN, 'D', from, to, { adjusted: false });
    expect(market.bars(SBIN, 'D', from, to, { adjusted: true })).toEqual(adj);
    expect(raw).toHaveLength(adj.length);
    const r = ca.ratio;
    const x = (p: number): number => Math.round(p * r * 100) / 100;
    adj.forEach((a, i) => {
      const b = raw[i] as Bar;
      if (a.time < ca.time) {
        expect([b.open, b.high, b.low, b.close]).toEqual([x(a.open), x(a.high), x(a.low), x(a.close)]);
        expect(a.volume).toBe(b.volume * r);
      } else {
        expect(b).toEqual(a);
      }
    });
    // The raw series jumps at the ex-date; the adjusted one is continuous.
    const before = raw.filter((b) => b.time < ca.time).pop() as Bar;
    const after = raw.find((b) => b.time >= ca.time) as Bar;
    expect(before.close / after.open).toBeGreaterThan(r * 0.9);
    // Weekly and intraday raw bars agree with the raw daily ones.
    const rawWeeks = market.bars(SBIN, 'W', from, to, { adjusted: false });
    for (const w of rawWeeks.filter((b) => b.time + 7 * 86_400 <= to)) {
      expect(strip(w)).toEqual(
        aggregate(raw.filter((d) => d.time >= w.time && d.time < w.time + 7 * 86_400)),
      );
    }
    const dayBefore = ca.time - 86_400;
    const rawMins = market.bars(SBIN, '1m', dayBefore, ca.time - 1, { adjusted: false });
    expect(aggregate(rawMins)).toEqual(strip(raw.find((b) => b.time === dayBefore)));
  });
});

describe('prices, realism and limits', () => {
  it('exposes prices rounded to the tick without float artefacts', () => {
    const { market, clock } = newMarket();
    for (let i = 0; i < 200; i++) {
      clock.set(T0_MS + i * 7_919_000);
      expect(decimals(market.lastPrice(SBIN))).toBeLessThanOrEqual(2);
      const fx = market.lastPrice(USDINR_FUT);
      expect(decimals(fx)).toBeLessThanOrEqual(4);
      expect(Math.abs(fx / 0.0025 - Math.round(fx / 0.0025))).toBeLessThan(1e-6);
    }
  });

  it('wanders realistically: about a percent or two a day, bounded over ten years', () => {
    const { market } = newMarket();
    const days = market.bars(SBIN, 'D', T0 - 3650 * 86_400, T0);
    expect(days.length).toBeGreaterThanOrEqual(3650);
    const ranges = days.map((d) => (d.high - d.low) / d.close).sort((a, b) => a - b);
    const median = ranges[Math.floor(ranges.length / 2)] ?? 0;
    expect(median).toBeGreaterThan(0.005);
    expect(median).toBeLessThan(0.06);
    const lo = Math.min(...days.map((d) => d.low));
    const hi = Math.max(...days.map((d) => d.high));
    expect(lo).toBeGreaterThan(770 * 0.3);
    expect(hi).toBeLessThan(770 * 3);
    expect(hi / lo).toBeGreaterThan(1.3);
  });

  it('refuses absurdly large requests', () => {
    const { market } = newMarket();
    expect(() => market.bars(SBIN, '1s', T0 - 400 * 86_400, T0)).toThrow(RangeError);
  });

  it('rejects unknown intervals and non-finite windows', () => {
    const { market } = newMarket();
    expect(() => market.bars(SBIN, 'Q' as BarInterval, T0 - 86_400, T0)).toThrow(RangeError);
    expect(() => market.bars(SBIN, '1m', Number.NaN, T0)).toThrow(RangeError);
  });

  it('returns nothing for windows entirely in the future', () => {
    const { market } = newMarket();
    expect(market.bars(SBIN, '1m', T0 + 60, T0 + 3600)).toEqual([]);
  });
});
