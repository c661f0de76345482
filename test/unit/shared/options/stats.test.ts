import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bsGreeks, bsPrice, normCdf } from '../../../../src-main/shared/options/black-scholes.js';
import { payoffCurves, spotGrid } from '../../../../src-main/shared/options/payoff.js';
import { strategyStats, type StatsOptions } from '../../../../src-main/shared/options/stats.js';
import type { PayoffLeg } from '../../../../src-main/shared/options/types.js';

const EXPIRY = Date.UTC(2026, 10, 24, 10, 0); // 24NOV26 15:30 IST, a Tuesday
const FAR = Date.UTC(2026, 11, 29, 10, 0); // 29DEC26: 25 trading days after 24 Nov's close
const NOW = Date.UTC(2026, 10, 17, 10, 0); // Tuesday 17 Nov 15:30 IST: 5 trading days left
const T = 5 / 252;

const leg = (
  kind: PayoffLeg['kind'],
  side: PayoffLeg['side'],
  strike: number,
  premium: number,
  iv: number | null = 0.13,
  expiryMs = EXPIRY,
): PayoffLeg => ({ kind, side, strike, premium, iv, expiryMs, quantity: 75 });

function stats(legs: PayoffLeg[], o: Partial<StatsOptions> = {}) {
  const opts: StatsOptions = { spot: 24000, nowMs: NOW, ...o };
  const curves = payoffCurves(legs, { spots: spotGrid(opts.spot, legs), ...opts });
  return { curves, s: strategyStats(legs, curves, opts) };
}

/** P(a < S_T < b) for ln S_T ~ N(ln S + (r − σ²/2)T, σ²T): the hand formula, written out. */
function lognormalMass(a: number, b: number, spot: number, iv: number, years: number, rate: number): number {
  const z = (x: number) => (Math.log(x / spot) - (rate - (iv * iv) / 2) * years) / (iv * Math.sqrt(years));
  return normCdf(z(b)) - normCdf(z(a));
}

describe('strategyStats: short straddle (NIFTY 24000 CE 150 and PE 140 sold, 75 units)', () => {
  const legs = [leg('CE', 'SELL', 24000, 150), leg('PE', 'SELL', 24000, 140)];

  it('breakevens 24000 ∓ 290, max profit 290 × 75, unlimited loss, credit 21,750', () => {
    const { s } = stats(legs);
    expect(s.breakevens).toEqual([23710, 24290]);
    expect(s.maxProfit).toBe(21750);
    expect(s.maxLoss).toBe('unlimited');
    expect(s.netPremium).toBe(21750);
  });

  it('probability of profit: the lognormal mass between the breakevens', () => {
    // σ√T = 0.13·√(5/252) = 0.0183117; mean = (0.07 − 0.13²/2)·5/252 = 0.0012212.
    // z(24290) = (ln(24290/24000) − 0.0012212) / 0.0183117 = 0.589224;
    // z(23710) = (ln(23710/24000) − 0.0012212) / 0.0183117 = −0.730581.
    // POP = N(0.589224) − N(−0.730581) = 0.722145 − 0.232518 = 0.489627.
    const { s } = stats(legs);
    expect(s.pop).toBeCloseTo(0.489627, 6);
    expect(s.pop).toBeCloseTo(lognormalMass(23710, 24290, 24000, 0.13, T, 0.07), 12);
  });

  it('probability of profit is null without IV unless a fallback is given; 0 or 1 at expiry', () => {
    const bare = [leg('CE', 'SELL', 24000, 150, null), leg('PE', 'SELL', 24000, 140, null)];
    expect(stats(bare).s.pop).toBeNull();
    expect(stats(bare, { fallbackIv: 0.13 }).s.pop).toBeCloseTo(0.489627, 6);
    expect(stats(legs, { nowMs: EXPIRY }).s.pop).toBe(1);
    expect(stats(legs, { nowMs: EXPIRY, spot: 25000 }).s.pop).toBe(0);
  });

  it('net greeks: −75 × (call + put) at spot; short gamma and vega, collecting theta', () => {
    const { s } = stats(legs, { spot: 24050 });
    const c = bsGreeks('CE', 24050, 24000, T, 0.07, 0.13);
    const p = bsGreeks('PE', 24050, 24000, T, 0.07, 0.13);
    expect(s.greeks.delta).toBeCloseTo(-75 * (c.delta + p.delta), 10);
    expect(s.greeks.gamma).toBeCloseTo(-75 * (c.gamma + p.gamma), 12);
    expect(s.greeks.theta).toBeCloseTo(-75 * (c.theta + p.theta), 8);
    expect(s.greeks.vega).toBeCloseTo(-75 * (c.vega + p.vega), 8);
    expect(s.greeks.gamma).toBeLessThan(0);
    expect(s.greeks.vega).toBeLessThan(0);
    expect(s.greeks.theta).toBeGreaterThan(0);
    // Above the strike the call's delta outweighs the put's: short delta.
    expect(s.greeks.delta).toBeLessThan(0);
  });
});

describe('strategyStats: iron condor 23600/23800 puts, 24200/24400 calls', () => {
  // Sold 23800 PE at 60, bought 23600 PE at 25, sold 24200 CE at 55, bought 24400 CE at 20.
  // Credit = 60 − 25 + 55 − 20 = 70 a unit; wings 200 wide.
  const legs = [
    leg('PE', 'SELL', 23800, 60, 0.12),
    leg('PE', 'BUY', 23600, 25, 0.14),
    leg('CE', 'SELL', 24200, 55, 0.12),
    leg('CE', 'BUY', 24400, 20, 0.14),
  ];

  it('breakevens 23800 − 70 and 24200 + 70; max profit 70 × 75; max loss (200 − 70) × 75', () => {
    const { s, curves } = stats(legs);
    expect(s.breakevens).toEqual([23730, 24270]);
    expect(s.maxProfit).toBe(5250);
    expect(s.maxLoss).toBe(9750);
    expect(s.netPremium).toBe(5250);
    // On the grid: the floor below 23600 and above 24400 is −9,750; the plateau is 5,250.
    expect(curves.expiry[0]).toBeCloseTo(-9750, 9);
    expect(curves.expiry.at(-1)).toBeCloseTo(-9750, 9);
    expect(Math.max(...curves.expiry)).toBeCloseTo(5250, 9);
  });

  it('probability of profit with the legs’ mean IV (0.12, 0.14, 0.12, 0.14 → 0.13)', () => {
    // z(24270) = (ln(24270/24000) − 0.0012212) / 0.0183117 = 0.544241;
    // z(23730) = (ln(23730/24000) − 0.0012212) / 0.0183117 = −0.684535; POP = 0.460044.
    const { s } = stats(legs);
    expect(s.pop).toBeCloseTo(0.460044, 6);
    expect(s.pop).toBeCloseTo(lognormalMass(23730, 24270, 24000, 0.13, T, 0.07), 12);
  });
});

describe('strategyStats: other shapes', () => {
  it('a short strangle with tick premiums: breakevens exact to the paisa and below', () => {
    // Sold 24100 CE at 23.45 and 23900 PE at 31.10: credit 54.55; breakevens 23845.45 and 24154.55.
    const { s } = stats([leg('CE', 'SELL', 24100, 23.45), leg('PE', 'SELL', 23900, 31.1)]);
    expect(s.breakevens[0]).toBeCloseTo(23845.45, 9);
    expect(s.breakevens[1]).toBeCloseTo(24154.55, 9);
    expect(s.maxProfit).toBeCloseTo(54.55 * 75, 9);
  });

  it('a bought put: the spot floors at 0, so its profit is finite: (K − premium) × qty', () => {
    // (24000 − 140) × 75 = 17,89,500; loss the premium 140 × 75 = 10,500; breakeven 23860.
    const { s } = stats([leg('PE', 'BUY', 24000, 140)]);
    expect(s.maxProfit).toBe(1789500);
    expect(s.maxLoss).toBe(10500);
    expect(s.breakevens).toEqual([23860]);
    expect(s.netPremium).toBe(-10500);
  });

  it('a bought call: unlimited profit, the premium at risk', () => {
    const { s } = stats([leg('CE', 'BUY', 24000, 150)]);
    expect(s.maxProfit).toBe('unlimited');
    expect(s.maxLoss).toBe(11250);
    expect(s.breakevens).toEqual([24150]);
  });

  it('a bull call spread: one breakeven, both ends finite', () => {
    // Bought 24000 CE at 150, sold 24100 CE at 95: debit 55; breakeven 24055; profit (100 − 55) × 75.
    const { s } = stats([leg('CE', 'BUY', 24000, 150), leg('CE', 'SELL', 24100, 95)]);
    expect(s.breakevens).toEqual([24055]);
    expect(s.maxProfit).toBe(3375);
    expect(s.maxLoss).toBe(4125);
  });

  it('no legs: nothing to say', () => {
    const s = strategyStats(
      [],
      { spots: new Float64Array(0), expiry: new Float64Array(0), today: new Float64Array(0) },
      {
        spot: 24000,
        nowMs: NOW,
      },
    );
    expect(s).toEqual({
      breakevens: [],
      maxProfit: 0,
      maxLoss: 0,
      pop: null,
      netPremium: 0,
      greeks: { delta: 0, gamma: 0, theta: 0, vega: 0 },
    });
  });
});

describe('strategyStats: calendar (24000 CE sold for 24NOV26 at 150, bought for 29DEC26 at 320)', () => {
  const legs = [leg('CE', 'SELL', 24000, 150, 0.13), leg('CE', 'BUY', 24000, 320, 0.14, FAR)];
  const tFar = 25 / 252; // the far leg's trading time left at the near expiry
  /** The expiry P&L by hand: far call by Black–Scholes, near call at intrinsic, premiums. */
  const atExpiry = (spot: number, rate = 0.07) =>
    (bsPrice('CE', spot, 24000, tFar, rate, 0.14) - 320 + 150 - Math.max(spot - 24000, 0)) * 75;

  it('peaks at the strike at BS(far) − debit: (508.956 − 170) × 75 = 25,421.70', () => {
    const { s, curves } = stats(legs);
    const peak = curves.expiry.indexOf(Math.max(...curves.expiry));
    expect(curves.spots[peak]).toBe(24000);
    expect(s.maxProfit).toBeCloseTo(25421.7, 1);
    expect(s.maxProfit).toBeCloseTo(atExpiry(24000), 8);
  });

  it('max loss is the net debit 170 × 75 = 12,750 (all worthless as spot falls to 0)', () => {
    const { s, curves } = stats(legs);
    expect(s.maxLoss).toBeCloseTo(12750, 9);
    expect(s.netPremium).toBe(-12750);
    // The grid's low end (20400): the far call is worth 0.05, so the P&L is −12,750 + 3.81.
    expect(curves.expiry[0]).toBeCloseTo(atExpiry(20400), 6);
    expect(Math.abs(curves.expiry[0]! + 12750)).toBeLessThan(0.001 * 12750);
  });

  it('at rate 0 both far ends of the grid come to about the net debit', () => {
    const { s, curves } = stats(legs, { rate: 0 });
    expect(Math.abs(curves.expiry[0]! + 12750)).toBeLessThan(0.001 * 12750);
    // At 27600 the far call keeps 0.23 of time value: −12,750 + 17.6.
    expect(Math.abs(curves.expiry.at(-1)! + 12750)).toBeLessThan(0.002 * 12750);
    expect(s.maxLoss).toBeCloseTo(12750, 9);
    expect(s.maxProfit).toBeCloseTo(atExpiry(24000, 0), 8);
  });

  it('two breakevens where the hand formula is 0, with the profit between them', () => {
    const { s } = stats(legs);
    expect(s.breakevens).toHaveLength(2);
    const [lo, hi] = s.breakevens as [number, number];
    expect(lo).toBeLessThan(24000);
    expect(hi).toBeGreaterThan(24000);
    expect(Math.abs(atExpiry(lo))).toBeLessThan(1e-6);
    expect(Math.abs(atExpiry(hi))).toBeLessThan(1e-6);
    // Mean IV (0.13 + 0.14) / 2 = 0.135, to the near expiry 5 trading days away.
    expect(s.pop).toBeCloseTo(lognormalMass(lo, hi, 24000, 0.135, T, 0.07), 12);
  });

  it('more calls sold than bought makes the upside loss unlimited', () => {
    const diagonal = [{ ...legs[0]!, quantity: 150 }, legs[1]!];
    expect(stats(diagonal).s.maxLoss).toBe('unlimited');
  });
});

describe('strategyStats: any single-expiry strategy (property)', () => {
  const legArb = fc.record({
    kind: fc.constantFrom<PayoffLeg['kind']>('CE', 'PE'),
    side: fc.constantFrom<PayoffLeg['side']>('BUY', 'SELL'),
    strike: fc.integer({ min: 470, max: 490 }).map((k) => k * 50),
    premium: fc.integer({ min: 1, max: 8000 }).map((p) => p / 20),
    lots: fc.integer({ min: 1, max: 3 }),
  });

  it('breakevens are roots, and the extremes bound a dense grid and are reached on it', () => {
    fc.assert(
      fc.property(fc.array(legArb, { minLength: 1, maxLength: 4 }), (raw) => {
        const legs = raw
          .map((l) => leg(l.kind, l.side, l.strike, l.premium, 0.13, EXPIRY))
          .map((l, i) => ({
            ...l,
            quantity: 75 * raw[i]!.lots,
          }));
        const { s } = stats(legs);
        // The expiry P&L by hand: intrinsic less premium, signed by side.
        const at = (spot: number) =>
          legs.reduce((sum, l) => {
            const value = l.kind === 'CE' ? Math.max(spot - l.strike, 0) : Math.max(l.strike - spot, 0);
            return sum + (l.side === 'BUY' ? 1 : -1) * (value - l.premium) * l.quantity;
          }, 0);
        for (const b of s.breakevens) expect(Math.abs(at(b))).toBeLessThan(1e-6);
        const dense = Array.from({ length: 4001 }, (_, i) => i * 12.5); // 0 … 50,000
        const values = dense.map(at);
        const top = Math.max(...values);
        const bottom = Math.min(...values);
        if (s.maxProfit !== 'unlimited') {
          expect(s.maxProfit).toBeGreaterThanOrEqual(top - 1e-6);
          expect(s.maxProfit).toBeCloseTo(Math.max(0, top), 6);
        }
        if (s.maxLoss !== 'unlimited') {
          expect(s.maxLoss).toBeGreaterThanOrEqual(-bottom - 1e-6);
          expect(s.maxLoss).toBeCloseTo(Math.max(0, -bottom), 6);
        }
        // Every sign change on the dense grid has a breakeven within its step.
        for (let i = 1; i < dense.length; i++) {
          const a = values[i - 1]!;
          const b = values[i]!;
          if ((a > 1e-6 && b < -1e-6) || (a < -1e-6 && b > 1e-6))
            expect(s.breakevens.some((x) => x >= dense[i - 1]! && x <= dense[i]!)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
