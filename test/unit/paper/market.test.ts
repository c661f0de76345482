// Unit tests for the market simulator: books, quotes, option/future coherence, setPrice, splits,
// price formatting and realism.
import { describe, expect, it } from 'vitest';
import type { Instrument, Underlying } from '../../../src-main/paper/instruments/instrument.js';
import { ManualClock, systemClock } from '../../../src-main/paper/market/clock.js';
import type { Bar, BarInterval } from '../../../src-main/paper/market/market.js';
import { createMarket } from '../../../src-main/paper/market/simulator.js';
import {
  IST,
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

const R = 0.065;
const YEAR = 365 * 86_400;
const T0 = T0_MS / 1000;
const todayStart = Math.floor((T0 + IST) / 86_400) * 86_400 - IST;

/** Years to a 15:30 IST expiry, fixed at the start of the current IST day (as the model does). */
function tau(expiryDate: string): number {
  const expiry = Date.parse(`${expiryDate}T15:30:00+05:30`) / 1000;
  return (expiry - todayStart) / YEAR;
}

function decimals(x: number): number {
  const s = String(x);
  return s.includes('.') ? (s.split('.')[1] ?? '').length : 0;
}

function aggregate(bars: readonly Bar[]): Omit<Bar, 'time'> {
  const first = bars[0] as Bar;
  return {
    open: first.open,
    high: Math.max(...bars.map((b) => b.high)),
    low: Math.min(...bars.map((b) => b.low)),
    close: (bars[bars.length - 1] as Bar).close,
    volume: bars.reduce((s, b) => s + b.volume, 0),
  };
}

function strip(b: Bar | undefined): Omit<Bar, 'time'> {
  const { time: _time, ...rest } = b as Bar;
  return rest;
}

describe('clocks', () => {
  it('ManualClock sets and advances; systemClock follows Date.now', () => {
    const c = new ManualClock(1000);
    expect(c.now()).toBe(1000);
    c.advance(500);
    expect(c.now()).toBe(1500);
    c.set(42);
    expect(c.now()).toBe(42);
    expect(Math.abs(systemClock.now() - Date.now())).toBeLessThan(1000);
  });
});

describe('book', () => {
  const { market, clock } = newMarket();
  const k = atmStrike(market);
  const cases: Instrument[] = [
    SBIN,
    NIFTY_FUT,
    USDINR_FUT,
    option('CE', k),
    option('PE', k - 2000),
    option('CE', k + 4000, '2026-11-24'),
  ];

  it('has five levels a side on consecutive ticks around the last price, never crossed', () => {
    for (const inst of cases) {
      for (let i = 0; i < 40; i++) {
        clock.set(T0_MS + i * 1000);
        const b = market.book(inst);
        const ltp = market.lastPrice(inst);
        const tick = inst.tickSize;
        expect(b.ltp).toBe(ltp);
        expect(b.bids).toHaveLength(5);
        expect(b.asks).toHaveLength(5);
        const [bestBid, bestAsk] = [b.bids[0]?.price ?? NaN, b.asks[0]?.price ?? NaN];
        expect(bestAsk).toBeGreaterThanOrEqual(ltp);
        expect(bestBid).toBeLessThanOrEqual(ltp);
        expect(bestBid).toBeGreaterThan(0);
        expect(bestAsk).toBeGreaterThan(bestBid);
        expect(b.bid).toBe(bestBid);
        expect(b.ask).toBe(bestAsk);
        for (let j = 1; j < 5; j++) {
          expect((b.asks[j]?.price ?? 0) - (b.asks[j - 1]?.price ?? 0)).toBeCloseTo(tick, 9);
          const bid = b.bids[j];
          // Below one tick a level is empty (price 0, quantity 0), as brokers report it.
          if (bid && bid.price > 0) expect((b.bids[j - 1]?.price ?? 0) - bid.price).toBeCloseTo(tick, 9);
          else expect(bid).toEqual({ price: 0, quantity: 0 });
        }
        const lot = inst.kind === 'EQ' ? 1 : inst.lotsize;
        for (const l of [...b.bids, ...b.asks]) {
          expect(Number.isInteger(l.quantity)).toBe(true);
          expect(l.quantity % lot).toBe(0);
          if (l.price > 0) expect(l.quantity).toBeGreaterThan(0);
          expect(decimals(l.price)).toBeLessThanOrEqual(tick < 0.01 ? 4 : 2);
        }
        const shownBuy = b.bids.reduce((s, l) => s + l.quantity, 0);
        const shownSell = b.asks.reduce((s, l) => s + l.quantity, 0);
        expect(b.totalbuyqty).toBeGreaterThanOrEqual(shownBuy);
        expect(b.totalsellqty).toBeGreaterThan(shownSell);
      }
    }
  });

  it('equity quantities are in the hundreds to thousands, derivatives whole lots', () => {
    clock.set(T0_MS);
    const eq = market.book(SBIN);
    const mean = eq.asks.reduce((s, l) => s + l.quantity, 0) / 5;
    expect(mean).toBeGreaterThan(20);
    expect(mean).toBeLessThan(5000);
    expect(market.book(NIFTY_FUT).asks.every((l) => l.quantity % 75 === 0)).toBe(true);
  });
});

describe('quote', () => {
  it('reports the day so far, the previous close, volume, oi and the best levels', () => {
    const { market } = newMarket();
    const k = atmStrike(market);
    for (const inst of [SBIN, NIFTY, NIFTY_FUT, option('CE', k), option('PE', k)]) {
      const q = market.quote(inst);
      const days = market.bars(inst, 'D', todayStart - 86_400, T0);
      const [yesterday, today] = days;
      expect(days).toHaveLength(2);
      expect(q.ltp).toBe(market.lastPrice(inst));
      expect(q.open).toBe(today?.open);
      expect(q.high).toBe(today?.high);
      expect(q.low).toBe(today?.low);
      expect(q.ltp).toBe(today?.close);
      expect(q.volume).toBe(today?.volume);
      expect(q.prev_close).toBe(yesterday?.close);
      const book = market.book(inst);
      expect(q.bid).toBe(book.bids[0]?.price);
      expect(q.ask).toBe(book.asks[0]?.price);
      if (inst.kind === 'EQ' || inst.kind === 'INDEX') {
        expect(q.oi).toBe(0);
      } else {
        expect(q.oi).toBeGreaterThan(0);
        expect(q.oi % inst.lotsize).toBe(0);
        expect(q.ltq % inst.lotsize).toBe(0);
        expect(market.openInterest(inst)).toBe(q.oi);
      }
      if (inst.kind === 'INDEX') expect(q.volume).toBe(0);
      else expect(q.ltq).toBeGreaterThan(0);
    }
  });

  it('stays consistent with the day bar as the clock moves through the day', () => {
    const { market, clock } = newMarket(3);
    for (let i = 0; i < 30; i++) {
      clock.advance(37_000 + i * 1000);
      const q = market.quote(SBIN);
      const today = market.bars(SBIN, 'D', todayStart, T0 + 86_400)[0];
      expect(strip(today)).toEqual({
        open: q.open,
        high: q.high,
        low: q.low,
        close: q.ltp,
        volume: q.volume,
      });
    }
  });
});

describe('derivative coherence', () => {
  const { market } = newMarket();
  const S = market.lastPrice(NIFTY);
  const k = atmStrike(market);
  const strikes = Array.from({ length: 21 }, (_, i) => k + (i - 10) * 200);

  it('prices the future at spot times the cost of carry', () => {
    const expected = S * Math.exp(R * tau('2026-12-29'));
    expect(Math.abs(market.lastPrice(NIFTY_FUT) - expected)).toBeLessThanOrEqual(0.05 + 1e-9);
  });

  it('calls fall and puts rise with the strike', () => {
    const calls = strikes.map((x) => market.lastPrice(option('CE', x)));
    const puts = strikes.map((x) => market.lastPrice(option('PE', x)));
    for (let i = 1; i < strikes.length; i++) {
      expect(calls[i]).toBeLessThanOrEqual(calls[i - 1] ?? 0);
      expect(puts[i]).toBeGreaterThanOrEqual(puts[i - 1] ?? 0);
    }
    expect(calls[0]).toBeGreaterThan(calls[20] ?? 0);
    expect(puts[20]).toBeGreaterThan(puts[0] ?? 0);
  });

  it('satisfies put-call parity near the money', () => {
    // Away from the money the intrinsic floor binds for deep ITM puts (European puts can trade
    // below intrinsic with r > 0; the model floors them), so parity is checked near the money.
    const t = tau('2026-12-29');
    for (const x of strikes.slice(8, 13)) {
      const c = market.lastPrice(option('CE', x));
      const p = market.lastPrice(option('PE', x));
      expect(Math.abs(c - p - (S - x * Math.exp(-R * t)))).toBeLessThan(0.2);
    }
  });

  it('prices deep in-the-money options near intrinsic and deep OTM at one tick', () => {
    const t = tau('2026-12-29');
    const deepCall = market.lastPrice(option('CE', k - 5000));
    expect(Math.abs(deepCall - (S - (k - 5000) * Math.exp(-R * t))) / deepCall).toBeLessThan(0.005);
    expect(market.lastPrice(option('PE', k + 5000))).toBeGreaterThanOrEqual(k + 5000 - S - 0.05);
    expect(market.lastPrice(option('CE', k + 8000, '2026-11-24'))).toBe(0.05);
  });

  it('makes nearer expiries cheaper out of the money', () => {
    for (const x of [k + 400, k + 800]) {
      expect(market.lastPrice(option('CE', x, '2026-11-24'))).toBeLessThan(market.lastPrice(option('CE', x)));
    }
    for (const x of [k - 400, k - 800]) {
      expect(market.lastPrice(option('PE', x, '2026-11-24'))).toBeLessThan(market.lastPrice(option('PE', x)));
    }
  });

  it('prices expired options at intrinsic value (at least one tick)', () => {
    const expiredCall = market.lastPrice(option('CE', k - 300, '2026-11-13'));
    expect(expiredCall).toBeCloseTo(Math.max(0.05, S - (k - 300)), 6);
    expect(market.lastPrice(option('PE', k - 300, '2026-11-13'))).toBe(0.05);
  });
});

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
