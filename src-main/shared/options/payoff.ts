// The payoff diagram's data: a spot grid around the strikes, and the strategy's P&L along it at the
// first expiry and "today". Per-leg constants are worked out once per curve (curve-model.ts); the
// spot loop allocates nothing.
import { curveModel, firstExpiry, pnlAt } from './curve-model.js';
import type { PayoffCurves, PayoffLeg, PayoffOptions } from './types.js';

export const DEFAULT_GRID_POINTS = 400;

/**
 * `points` spots, ascending, evenly spaced from 0.85 × the lowest of the strikes and spot to 1.15 ×
 * the highest. The grid point nearest each strike (then the spot) is moved onto it, so the expiry
 * curve's kinks and the P&L at spot are drawn exactly; a point is moved only where order stays
 * strict. Empty when there is neither a strike nor a spot above 0.
 */
export function spotGrid(
  spot: number,
  legs: readonly PayoffLeg[],
  points: number = DEFAULT_GRID_POINTS,
): Float64Array {
  const n = Math.max(2, Math.floor(points));
  const marks: number[] = [];
  for (const leg of legs) if (leg.strike > 0 && !marks.includes(leg.strike)) marks.push(leg.strike);
  if (spot > 0 && Number.isFinite(spot)) marks.push(spot);
  if (marks.length === 0) return new Float64Array(0);
  const lo = Math.min(...marks) * 0.85;
  const hi = Math.max(...marks) * 1.15;
  const step = (hi - lo) / (n - 1);
  const grid = new Float64Array(n);
  for (let i = 0; i < n; i++) grid[i] = lo + i * step;
  grid[n - 1] = hi;
  const moved = new Uint8Array(n);
  for (const x of marks) {
    const i = Math.min(n - 2, Math.max(1, Math.round((x - lo) / step)));
    if (moved[i] === 1 || grid[i] === x) continue;
    if (x <= (grid[i - 1] as number) || x >= (grid[i + 1] as number)) continue;
    grid[i] = x;
    moved[i] = 1;
  }
  return grid;
}

/**
 * The P&L in rupees at each of `o.spots`: `expiry` at the first expiry among the legs (a leg
 * expiring later valued by Black–Scholes with the trading time it has left then, as a calendar's
 * far leg is), `today` by Black–Scholes at `o.nowMs`. Each leg: (value − premium) × quantity bought,
 * (premium − value) × quantity sold; IV (leg.iv ?? fallbackIv 0.15) + ivShift, at least 0.0001;
 * rate 0.07 unless given.
 */
export function payoffCurves(legs: readonly PayoffLeg[], o: PayoffOptions): PayoffCurves {
  const spots = o.spots instanceof Float64Array ? o.spots : Float64Array.from(o.spots);
  const n = spots.length;
  const expiry = new Float64Array(n);
  const today = new Float64Array(n);
  if (legs.length === 0) return { spots, expiry, today };
  const atExpiry = curveModel(legs, firstExpiry(legs), o);
  const atNow = curveModel(legs, o.nowMs, o);
  for (let i = 0; i < n; i++) {
    const s = spots[i] as number;
    const lnS = Math.log(s);
    expiry[i] = pnlAt(atExpiry, s, lnS);
    today[i] = pnlAt(atNow, s, lnS);
  }
  return { spots, expiry, today };
}
