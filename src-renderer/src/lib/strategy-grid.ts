// The payoff's spot grid as the builder draws it: the shared spotGrid's span (0.85 × the lowest of the
// strikes and spot to 1.15 × the highest) on a round step (1, 2.5 or 5 × 10^k), so the chart's price
// axis, which labels grid points as they are, reads 24900 and 25500 rather than 24899 and 25913. As
// spotGrid does, the point nearest each strike and the spot is moved onto it (where order stays
// strict), so the expiry curve's kinks and the P&L at the spot are exact.
import type { PayoffLeg } from '@shared/options/types.js';

/** The round step nearest above `raw`: 1, 2.5 or 5 × 10^k. */
export function roundStep(raw: number): number {
  const k = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2.5, 5, 10]) if (m * k >= raw) return m * k;
  return 10 * k;
}

/** About `points` spots on a round step over spotGrid's span; empty without a strike or spot above 0. */
export function roundSpotGrid(spot: number, legs: readonly PayoffLeg[], points = 400): Float64Array {
  const marks: number[] = [];
  for (const l of legs) if (l.strike > 0 && !marks.includes(l.strike)) marks.push(l.strike);
  if (spot > 0 && Number.isFinite(spot)) marks.push(spot);
  if (marks.length === 0) return new Float64Array(0);
  const lo0 = Math.min(...marks) * 0.85;
  const hi0 = Math.max(...marks) * 1.15;
  const step = roundStep((hi0 - lo0) / Math.max(1, points - 1));
  const lo = Math.floor(lo0 / step) * step;
  const n = Math.ceil((hi0 - lo) / step) + 1;
  const grid = new Float64Array(n);
  for (let i = 0; i < n; i++) grid[i] = Number((lo + i * step).toFixed(6));
  const moved = new Uint8Array(n);
  for (const x of marks) {
    const i = Math.min(n - 2, Math.max(1, Math.round((x - lo) / step)));
    if (moved[i] === 1 || grid[i] === x) continue;
    if (x <= grid[i - 1]! || x >= grid[i + 1]!) continue;
    grid[i] = x;
    moved[i] = 1;
  }
  return grid;
}
