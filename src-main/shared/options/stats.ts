// A strategy's summary: breakevens, max profit and loss, probability of profit, net premium and net
// greeks. When every leg shares one expiry the expiry P&L is piecewise linear in spot (kinks at the
// strikes), so breakevens and extremes are exact from the kinks and the end slopes; with several
// expiries they come from the expiry curve's grid, each breakeven refined on the curve's own formula.
// The spot floors at 0: below the lowest strike the curve ends at S = 0, so a put's downside is
// finite; only the upside (beyond the highest strike) can be unlimited, by the calls' net quantity.
import { bsGreeks, normCdf } from './black-scholes.js';
import { DEFAULT_RATE, MIN_IV, curveModel, firstExpiry, legIv, pnl, type CurveModel } from './curve-model.js';
import { tradingYears } from './trading-time.js';
import type { NetGreeks, PayoffCurves, PayoffLeg, StrategyStats } from './types.js';

export interface StatsOptions {
  /** The underlying's spot now (rupees): greeks and the probability of profit start from it. */
  spot: number;
  nowMs: number;
  rate?: number;
  ivShift?: number;
  /** The IV of a leg whose own is null; the probability of profit uses it only when given here. */
  fallbackIv?: number;
}

/** A sign change of the expiry P&L: where, and the bracket it was found in. */
interface Crossing {
  x: number;
  lo: number;
  hi: number;
  /** True when `x` is exact (a linear segment's root, or a point where the P&L is 0). */
  exact: boolean;
}

/**
 * Where the polyline (xs ascending, vs) changes sign, |v| ≤ eps counting as 0. A run of zeros
 * between opposite signs crosses at the run's end on the profit side; touching 0 is no crossing.
 */
function crossings(xs: readonly number[], vs: readonly number[], eps: number, linear: boolean): Crossing[] {
  const out: Crossing[] = [];
  let prevSign = 0;
  let prevX = 0;
  let prevV = 0;
  let zeroFrom = Number.NaN;
  let zeroTo = Number.NaN;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i] as number;
    const v = vs[i] as number;
    const sign = v > eps ? 1 : v < -eps ? -1 : 0;
    if (sign === 0) {
      if (Number.isNaN(zeroFrom)) zeroFrom = x;
      zeroTo = x;
      continue;
    }
    if (prevSign !== 0 && sign !== prevSign) {
      if (!Number.isNaN(zeroFrom)) {
        const at = sign > 0 ? zeroTo : zeroFrom;
        out.push({ x: at, lo: at, hi: at, exact: true });
      } else {
        out.push({ x: prevX - (prevV * (x - prevX)) / (v - prevV), lo: prevX, hi: x, exact: linear });
      }
    }
    prevSign = sign;
    prevX = x;
    prevV = v;
    zeroFrom = Number.NaN;
  }
  return out;
}

/** The root of the model's P&L in [lo, hi] (opposite signs at the ends), by regula falsi (Illinois). */
function refineRoot(m: CurveModel, lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  let fa = pnl(m, a);
  let fb = pnl(m, b);
  if (fa === 0) return a;
  if (fb === 0) return b;
  if (Math.sign(fa) === Math.sign(fb)) return lo - (fa * (hi - lo)) / (fb - fa);
  let side = 0;
  let c = a;
  for (let i = 0; i < 100; i++) {
    c = (a * fb - b * fa) / (fb - fa);
    const fc = pnl(m, c);
    if (fc === 0 || Math.abs(b - a) <= 1e-10 * Math.abs(c)) break;
    if (Math.sign(fc) === Math.sign(fb)) {
      b = c;
      fb = fc;
      if (side === -1) fa /= 2;
      side = -1;
    } else {
      a = c;
      fa = fc;
      if (side === 1) fb /= 2;
      side = 1;
    }
  }
  return c;
}

function netGreeks(legs: readonly PayoffLeg[], o: StatsOptions): NetGreeks {
  const sum: NetGreeks = { delta: 0, gamma: 0, theta: 0, vega: 0 };
  const rate = o.rate ?? DEFAULT_RATE;
  for (const leg of legs) {
    const years = tradingYears(o.nowMs, leg.expiryMs);
    const g = bsGreeks(leg.kind, o.spot, leg.strike, years, rate, legIv(leg, o));
    const q = leg.side === 'BUY' ? leg.quantity : -leg.quantity;
    sum.delta += q * g.delta;
    sum.gamma += q * g.gamma;
    sum.theta += q * g.theta;
    sum.vega += q * g.vega;
  }
  return sum;
}

/** The legs' mean IV weighted by quantity, plus the shift; null when no leg has one (nor a fallback given). */
function meanIv(legs: readonly PayoffLeg[], o: StatsOptions): number | null {
  let weighted = 0;
  let units = 0;
  for (const leg of legs) {
    const iv = leg.iv ?? o.fallbackIv;
    if (iv === undefined || !Number.isFinite(iv)) continue;
    weighted += iv * leg.quantity;
    units += leg.quantity;
  }
  return units > 0 ? Math.max(MIN_IV, weighted / units + (o.ivShift ?? 0)) : null;
}

/**
 * P(expiry P&L > 0) with the spot at the first expiry lognormal: ln S_T ~ N(ln S + (r − σ²/2)T, σ²T),
 * T the trading years to it. The mass of each interval between breakevens where the P&L is above 0.
 */
function probabilityOfProfit(
  legs: readonly PayoffLeg[],
  m: CurveModel,
  breakevens: readonly number[],
  eps: number,
  o: StatsOptions,
): number | null {
  const iv = meanIv(legs, o);
  if (iv === null || !(o.spot > 0)) return null;
  const years = tradingYears(o.nowMs, firstExpiry(legs));
  if (!(years > 0)) return pnl(m, o.spot) > eps ? 1 : 0;
  const rate = o.rate ?? DEFAULT_RATE;
  const spread = iv * Math.sqrt(years);
  const mean = (rate - 0.5 * iv * iv) * years;
  const below = (x: number): number =>
    x <= 0 ? 0 : x === Infinity ? 1 : normCdf((Math.log(x / o.spot) - mean) / spread);
  if (breakevens.length === 0) return pnl(m, o.spot) > eps ? 1 : 0;
  const bounds = [0, ...breakevens, Infinity];
  let p = 0;
  for (let i = 0; i + 1 < bounds.length; i++) {
    const a = bounds[i] as number;
    const b = bounds[i + 1] as number;
    const probe = a === 0 ? b / 2 : b === Infinity ? 2 * a : (a + b) / 2;
    if (pnl(m, probe) > eps) p += below(b) - below(a);
  }
  return Math.min(1, Math.max(0, p));
}

/**
 * Breakevens, max profit and loss (at expiry: the first expiry among the legs), probability of
 * profit, net premium and the net greeks at `o.spot` and `o.nowMs`. `curves` is payoffCurves' answer
 * for the same legs and options; its grid is used when the legs have several expiries. Max profit and
 * max loss are clamped at 0 (a strategy that cannot lose has max loss 0).
 */
export function strategyStats(
  legs: readonly PayoffLeg[],
  curves: PayoffCurves,
  o: StatsOptions,
): StrategyStats {
  let netPremium = 0;
  let scale = 0;
  let upSlope = 0;
  for (const leg of legs) {
    netPremium += (leg.side === 'SELL' ? 1 : -1) * leg.premium * leg.quantity;
    scale += leg.quantity * (leg.strike + leg.premium);
    if (leg.kind === 'CE') upSlope += leg.side === 'BUY' ? leg.quantity : -leg.quantity;
  }
  const greeks = netGreeks(legs, o);
  if (legs.length === 0)
    return { breakevens: [], maxProfit: 0, maxLoss: 0, pop: null, netPremium: 0, greeks };

  const first = firstExpiry(legs);
  const single = legs.every((leg) => leg.expiryMs === first);
  const m = curveModel(legs, first, o);
  const eps = 1e-12 * scale;
  const strikes = [...new Set(legs.map((leg) => leg.strike))].sort((a, b) => a - b);
  const top = strikes.at(-1) as number;

  // The polyline: S = 0, then the kinks (single expiry) or the grid with the strikes (several), then a
  // point far enough right that the last segment holds the upside's crossing, if any.
  const xs: number[] = [0];
  const vs: number[] = [pnl(m, 0)];
  if (single) {
    for (const k of strikes) {
      xs.push(k);
      vs.push(pnl(m, k));
    }
  } else {
    let j = 0;
    const grid = curves.spots;
    for (let i = 0; i < grid.length; i++) {
      const s = grid[i] as number;
      while (j < strikes.length && (strikes[j] as number) < s) {
        xs.push(strikes[j] as number);
        vs.push(pnl(m, strikes[j] as number));
        j++;
      }
      if (j < strikes.length && strikes[j] === s) j++;
      if (s > 0 && s > (xs.at(-1) as number)) {
        xs.push(s);
        vs.push(curves.expiry[i] as number);
      }
    }
    for (; j < strikes.length; j++) {
      xs.push(strikes[j] as number);
      vs.push(pnl(m, strikes[j] as number));
    }
  }
  const last = xs.at(-1) as number;
  const lastV = vs.at(-1) as number;
  const far = Math.max(last, top) * 2 + (upSlope !== 0 ? Math.abs(lastV / upSlope) : 0);
  xs.push(far);
  vs.push(pnl(m, far));

  const breakevens = crossings(xs, vs, eps, single).map((c) => (c.exact ? c.x : refineRoot(m, c.lo, c.hi)));

  // Extremes: the polyline's points, and the upside's limit when the calls net to 0 (a bought call
  // tends to S − K·e^(−rT), so the S terms cancel): Σ sold/bought (−K·e^(−rT) for calls) − premium.
  let hi = -Infinity;
  let lo = Infinity;
  for (const v of vs) {
    if (v > hi) hi = v;
    if (v < lo) lo = v;
  }
  if (Math.abs(upSlope) < 1e-9) {
    let limit = 0;
    for (let i = 0; i < m.n; i++)
      limit +=
        (m.signedQty[i] as number) *
        ((m.call[i] === 1 ? -(m.discounted[i] as number) : 0) - (m.premium[i] as number));
    hi = Math.max(hi, limit);
    lo = Math.min(lo, limit);
  }
  const maxProfit = upSlope > 1e-9 ? 'unlimited' : Math.max(0, hi);
  const maxLoss = upSlope < -1e-9 ? 'unlimited' : Math.max(0, -lo);
  const pop = probabilityOfProfit(legs, m, breakevens, eps, o);
  return { breakevens, maxProfit, maxLoss, pop, netPremium, greeks };
}
