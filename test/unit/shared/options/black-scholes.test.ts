import { describe, expect, it } from 'vitest';
import { bsGreeks, bsPrice, impliedVol, normCdf } from '../../../../src-main/shared/options/black-scholes.js';
import type { OptionKind } from '../../../../src-main/shared/options/types.js';

describe('normCdf', () => {
  it('matches Φ(x) = erfc(−x/√2)/2 to 1e-14', () => {
    // Reference values: Python's 0.5 * math.erfc(-x / math.sqrt(2)).
    const cases: [number, number][] = [
      [0, 0.5],
      [1, 0.8413447460685429],
      [-3, 0.0013498980316300957],
      [1.96, 0.9750021048517795],
      [0.5, 0.6914624612740131],
      [-0.25, 0.4012936743170763],
      [2.5, 0.9937903346742238],
      [-6, 9.865876450377012e-10],
      [8, 0.9999999999999993],
    ];
    for (const [x, want] of cases) expect(Math.abs(normCdf(x) - want)).toBeLessThan(1e-14);
  });

  it('is symmetric: Φ(x) + Φ(−x) = 1, and 0 / 1 far out', () => {
    for (const x of [0.1, 0.7, 1.3, 2.9, 5.5, 9]) expect(normCdf(x) + normCdf(-x)).toBeCloseTo(1, 15);
    expect(normCdf(-40)).toBe(0);
    expect(normCdf(40)).toBe(1);
    expect(normCdf(-Infinity)).toBe(0);
  });
});

describe('bsPrice', () => {
  it('matches the textbook case S = K = 100, T = 1, r = 5 %, σ = 20 %', () => {
    // d1 = (0 + (0.05 + 0.02)·1) / 0.2 = 0.35, d2 = 0.15; N(0.35) = 0.636831, N(0.15) = 0.559618.
    // Call = 100·0.636831 − 100·e^(−0.05)·0.559618 = 63.6831 − 53.2325 = 10.4506.
    // Put = call − S + K·e^(−rT) = 10.4506 − 100 + 95.1229 = 5.5735.
    expect(bsPrice('CE', 100, 100, 1, 0.05, 0.2)).toBeCloseTo(10.4506, 4);
    expect(bsPrice('PE', 100, 100, 1, 0.05, 0.2)).toBeCloseTo(5.5735, 4);
  });

  it('keeps put–call parity C − P = S − K·e^(−rT) to 1e-9 relative', () => {
    for (const strike of [80, 95, 100, 110, 140]) {
      for (const years of [1 / 252, 0.05, 0.5, 2]) {
        for (const iv of [0.08, 0.25, 0.6]) {
          const c = bsPrice('CE', 100, strike, years, 0.07, iv);
          const p = bsPrice('PE', 100, strike, years, 0.07, iv);
          const forward = 100 - strike * Math.exp(-0.07 * years);
          expect(Math.abs(c - p - forward) / 100).toBeLessThan(1e-9);
        }
      }
    }
  });

  it('is the intrinsic value with no time or no volatility left', () => {
    expect(bsPrice('CE', 24100, 24000, 0, 0.07, 0.15)).toBe(100);
    expect(bsPrice('PE', 24100, 24000, 0, 0.07, 0.15)).toBe(0);
    expect(bsPrice('PE', 23900, 24000, -0.01, 0.07, 0.15)).toBe(100);
    expect(bsPrice('CE', 23900, 24000, 0.1, 0.07, 0)).toBe(0);
  });
});

describe('bsGreeks', () => {
  it('matches the textbook case (Hull: Δ 0.6368, Γ 0.01876, Θ −6.414 a year, vega 37.52 per 1.00)', () => {
    const g = bsGreeks('CE', 100, 100, 1, 0.05, 0.2);
    expect(g.delta).toBeCloseTo(0.6368, 4);
    expect(g.gamma).toBeCloseTo(0.018762, 6);
    expect(g.theta).toBeCloseTo(-6.414 / 365, 5); // per calendar day
    expect(g.vega).toBeCloseTo(0.37524, 5); // per 1 IV point
    // The put: Δ = N(d1) − 1 = 0.6368 − 1.
    expect(bsGreeks('PE', 100, 100, 1, 0.05, 0.2).delta).toBeCloseTo(-0.3632, 4);
  });

  it('agrees with central finite differences of bsPrice', () => {
    const cases: [OptionKind, number, number, number, number][] = [
      ['CE', 24000, 24100, 10 / 252, 0.13],
      ['PE', 24000, 23800, 3 / 252, 0.16],
      ['CE', 51000, 50000, 0.25, 0.2],
      ['PE', 100, 120, 1.5, 0.35],
    ];
    for (const [kind, s, k, t, iv] of cases) {
      const r = 0.07;
      const g = bsGreeks(kind, s, k, t, r, iv);
      const h = s * 1e-4;
      const price = (S: number, T: number, V: number) => bsPrice(kind, S, k, T, r, V);
      const hd = s * 1e-6;
      const delta = (price(s + hd, t, iv) - price(s - hd, t, iv)) / (2 * hd);
      const gamma = (price(s + h, t, iv) - 2 * price(s, t, iv) + price(s - h, t, iv)) / (h * h);
      const vega = ((price(s, t, iv + 1e-5) - price(s, t, iv - 1e-5)) / 2e-5) * 0.01;
      const dt = t * 1e-4;
      const theta = -((price(s, t + dt, iv) - price(s, t - dt, iv)) / (2 * dt)) / 365;
      expect(g.delta).toBeCloseTo(delta, 6);
      expect(Math.abs(g.gamma - gamma) / g.gamma).toBeLessThan(1e-3);
      expect(Math.abs(g.vega - vega) / g.vega).toBeLessThan(1e-6);
      expect(Math.abs(g.theta - theta) / Math.abs(g.theta)).toBeLessThan(1e-6);
    }
  });

  it('with no time left: delta is the intrinsic slope, the rest 0', () => {
    expect(bsGreeks('CE', 24100, 24000, 0, 0.07, 0.15)).toEqual({ delta: 1, gamma: 0, theta: 0, vega: 0 });
    expect(bsGreeks('PE', 24100, 24000, 0, 0.07, 0.15).delta).toBe(0);
    expect(bsGreeks('PE', 23900, 24000, 0, 0.07, 0.15).delta).toBe(-1);
  });
});

describe('impliedVol', () => {
  it('round-trips bsPrice to 1e-6', () => {
    const cases: [OptionKind, number, number, number][] = [
      ['CE', 24000, 7 / 252, 0.12],
      ['PE', 24000, 7 / 252, 0.12],
      ['CE', 24500, 20 / 252, 0.14],
      ['PE', 23500, 20 / 252, 0.18],
      ['CE', 23000, 60 / 252, 0.25],
      ['PE', 26000, 0.5, 0.4],
      ['CE', 24000, 1 / 252, 0.9],
      ['PE', 24200, 1, 2.5],
    ];
    for (const [kind, strike, years, iv] of cases) {
      const price = bsPrice(kind, 24000, strike, years, 0.07, iv);
      const back = impliedVol(kind, price, 24000, strike, years, 0.07);
      expect(back).not.toBeNull();
      expect(Math.abs((back as number) - iv)).toBeLessThan(1e-6);
    }
  });

  it('is null where no volatility gives the price', () => {
    // Call floor S − K·e^(−rT) = 24000 − 23800·e^(−0.07·0.02) = 24000 − 23766.7 = 233.3; 200 is below it.
    expect(impliedVol('CE', 200, 24000, 23800, 0.02, 0.07)).toBeNull();
    expect(impliedVol('CE', 150, 24000, 24000, 0, 0.07)).toBeNull();
    expect(impliedVol('CE', 24000, 24000, 24000, 0.1, 0.07)).toBeNull(); // at the ceiling S
    expect(impliedVol('PE', 0, 24000, 23000, 0.1, 0.07)).toBeNull();
    expect(impliedVol('PE', Number.NaN, 24000, 23000, 0.1, 0.07)).toBeNull();
  });
});
