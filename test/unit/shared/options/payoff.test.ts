import { describe, expect, it } from 'vitest';
import { bsPrice } from '../../../../src-main/shared/options/black-scholes.js';
import { payoffCurves, spotGrid } from '../../../../src-main/shared/options/payoff.js';
import { tradingYears } from '../../../../src-main/shared/options/trading-time.js';
import type { PayoffLeg } from '../../../../src-main/shared/options/types.js';

const EXPIRY = Date.UTC(2026, 10, 24, 10, 0); // 24NOV26 15:30 IST
const NOW = Date.UTC(2026, 10, 17, 10, 0); // Tuesday 17 Nov 15:30 IST: 5 trading days left

const straddle: PayoffLeg[] = [
  { kind: 'CE', strike: 24000, side: 'SELL', quantity: 75, premium: 150, iv: 0.13, expiryMs: EXPIRY },
  { kind: 'PE', strike: 24000, side: 'SELL', quantity: 75, premium: 140, iv: 0.13, expiryMs: EXPIRY },
];

describe('spotGrid', () => {
  const legs: PayoffLeg[] = [
    { ...straddle[0]!, strike: 24200 },
    { ...straddle[1]!, strike: 23800 },
  ];

  it('400 ascending spots from 0.85 × the lowest mark to 1.15 × the highest', () => {
    const g = spotGrid(24010, legs);
    expect(g).toHaveLength(400);
    expect(g[0]).toBeCloseTo(23800 * 0.85, 9); // 20230
    expect(g[399]).toBeCloseTo(24200 * 1.15, 9); // 27830
    for (let i = 1; i < g.length; i++) expect(g[i]).toBeGreaterThan(g[i - 1]!);
  });

  it('holds each strike and the spot exactly', () => {
    const g = Array.from(spotGrid(24010, legs));
    expect(g).toContain(23800);
    expect(g).toContain(24200);
    expect(g).toContain(24010);
  });

  it('widens to a spot outside the strikes, and takes a point count', () => {
    const g = spotGrid(30000, legs, 50);
    expect(g).toHaveLength(50);
    expect(g[49]).toBeCloseTo(30000 * 1.15, 9);
    expect(Array.from(g)).toContain(30000);
  });

  it('is empty with neither a strike nor a spot', () => {
    expect(spotGrid(0, [])).toHaveLength(0);
  });
});

describe('payoffCurves', () => {
  it('a short straddle at expiry: 290 credit less the ITM leg, × 75', () => {
    // 23500: put worth 500 → (150 + 140 − 500) × 75 = −15,750. 23710: 290 − 290 = 0. 24000: 290 × 75 =
    // 21,750. 24290: 0. 24500: call 500 → −15,750. 25000: call 1000 → (290 − 1000) × 75 = −53,250.
    const c = payoffCurves(straddle, { spots: [23500, 23710, 24000, 24290, 24500, 25000], nowMs: NOW });
    expect(Array.from(c.expiry)).toEqual([-15750, 0, 21750, 0, -15750, -53250]);
    expect(c.spots).toBeInstanceOf(Float64Array);
  });

  it('the today curve is Black–Scholes with the trading time left, and follows the IV shift', () => {
    const years = tradingYears(NOW, EXPIRY); // 5 / 252
    expect(years).toBeCloseTo(5 / 252, 14);
    const at = (spot: number, iv: number) =>
      (150 -
        bsPrice('CE', spot, 24000, years, 0.07, iv) +
        140 -
        bsPrice('PE', spot, 24000, years, 0.07, iv)) *
      75;
    const c = payoffCurves(straddle, { spots: [23800, 24000, 24300], nowMs: NOW });
    expect(c.today[0]).toBeCloseTo(at(23800, 0.13), 8);
    expect(c.today[1]).toBeCloseTo(at(24000, 0.13), 8);
    expect(c.today[2]).toBeCloseTo(at(24300, 0.13), 8);
    const shifted = payoffCurves(straddle, { spots: [24000], nowMs: NOW, ivShift: 0.02, rate: 0.05 });
    const want =
      (150 -
        bsPrice('CE', 24000, 24000, years, 0.05, 0.15) +
        140 -
        bsPrice('PE', 24000, 24000, years, 0.05, 0.15)) *
      75;
    expect(shifted.today[0]).toBeCloseTo(want, 8);
    // The single-expiry expiry curve does not depend on IV.
    expect(shifted.expiry[0]).toBe(21750);
  });

  it('a leg without IV uses fallbackIv (0.15 unless given); IV never goes below 0.0001', () => {
    const years = 5 / 252;
    const bought: PayoffLeg[] = [{ ...straddle[0]!, side: 'BUY', iv: null }];
    const d = payoffCurves(bought, { spots: [24000], nowMs: NOW });
    expect(d.today[0]).toBeCloseTo((bsPrice('CE', 24000, 24000, years, 0.07, 0.15) - 150) * 75, 8);
    const f = payoffCurves(bought, { spots: [24000], nowMs: NOW, fallbackIv: 0.3 });
    expect(f.today[0]).toBeCloseTo((bsPrice('CE', 24000, 24000, years, 0.07, 0.3) - 150) * 75, 8);
    const floor = payoffCurves(bought, { spots: [24000], nowMs: NOW, ivShift: -1 });
    expect(floor.today[0]).toBeCloseTo((bsPrice('CE', 24000, 24000, years, 0.07, 0.0001) - 150) * 75, 8);
  });

  it('a calendar: the far leg is valued at the near expiry with its time left then', () => {
    const far = Date.UTC(2026, 11, 29, 10, 0); // 29DEC26: 25 trading days after 24 Nov's close
    const legs: PayoffLeg[] = [
      { kind: 'CE', strike: 24000, side: 'SELL', quantity: 75, premium: 150, iv: 0.13, expiryMs: EXPIRY },
      { kind: 'CE', strike: 24000, side: 'BUY', quantity: 75, premium: 320, iv: 0.14, expiryMs: far },
    ];
    const c = payoffCurves(legs, { spots: [23000, 24000, 25000], nowMs: NOW });
    const t = 25 / 252;
    // At 24000: near call expires worthless; far call BS(24000, 24000, 25/252, 7 %, 14 %) = 508.956;
    // (508.956 − 320 + 150) × 75 = 25,421.70.
    expect(c.expiry[1]).toBeCloseTo(25421.7, 1);
    expect(c.expiry[1]).toBeCloseTo((bsPrice('CE', 24000, 24000, t, 0.07, 0.14) - 320 + 150) * 75, 8);
    // At 25000: the near call costs 1000 intrinsic.
    expect(c.expiry[2]).toBeCloseTo((bsPrice('CE', 25000, 24000, t, 0.07, 0.14) - 320 + 150 - 1000) * 75, 8);
  });
});
