// The builder's round-step spot grid (lib/strategy-grid): spotGrid's span on a 1/2.5/5 × 10^k step,
// the strikes and the spot moved onto it, ascending throughout.
import { describe, expect, it } from 'vitest';
import type { PayoffLeg } from '@shared/options/types.js';
import { roundSpotGrid, roundStep } from '../../../src-renderer/src/lib/strategy-grid';

const leg = (strike: number): PayoffLeg => ({
  kind: 'CE',
  strike,
  side: 'BUY',
  quantity: 65,
  premium: 10,
  iv: 0.15,
  expiryMs: 0,
});

describe('roundSpotGrid', () => {
  it('rounds steps to 1, 2.5 or 5 × 10^k', () => {
    expect([0.7, 1, 1.2, 2.6, 4, 18.75, 51, 260].map(roundStep)).toEqual([1, 1, 2.5, 5, 5, 25, 100, 500]);
  });

  it('covers 0.85–1.15 × the marks on a round step, strikes and spot on the grid, ascending', () => {
    const g = roundSpotGrid(25_626.05, [leg(25_450), leg(25_850)]);
    expect(g[0]).toBeLessThanOrEqual(25_450 * 0.85);
    expect(g[g.length - 1]).toBeGreaterThanOrEqual(25_850 * 1.15);
    expect(g[0]! % 25).toBe(0);
    expect(g[10]! - g[9]!).toBe(25);
    for (const x of [25_450, 25_850, 25_626.05]) expect(g.includes(x)).toBe(true);
    for (let i = 1; i < g.length; i++) expect(g[i]).toBeGreaterThan(g[i - 1]!);
    expect(roundSpotGrid(0, [])).toHaveLength(0);
  });
});
