// Black–Scholes for European index options (no dividends): the normal CDF, prices, greeks and the
// implied volatility. Times are years (the caller's trading years, trading-time.ts), rates and IVs
// are fractions (0.07, 0.15), prices are rupees per unit.
import type { OptionKind } from './types.js';

const INV_SQRT_2PI = 0.3989422804014327;
/** Calendar days a year of decay spreads over: theta per calendar day is the yearly decay / 365. */
const CALENDAR_DAYS = 365;

/**
 * The standard normal CDF by Hart's double-precision rational approximation (West 2005), about 1e-14
 * absolute. The tail is computed for |x| and mirrored, so normCdf(x) + normCdf(−x) is 1 to rounding,
 * which keeps put–call parity exact.
 */
export function normCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const a = Math.abs(x);
  let tail: number;
  if (a > 37) {
    tail = 0;
  } else {
    const e = Math.exp(-0.5 * a * a);
    if (a < 7.07106781186547) {
      let n = 3.52624965998911e-2 * a + 0.700383064443688;
      n = n * a + 6.37396220353165;
      n = n * a + 33.912866078383;
      n = n * a + 112.079291497871;
      n = n * a + 221.213596169931;
      n = n * a + 220.206867912376;
      let d = 8.83883476483184e-2 * a + 1.75566716318264;
      d = d * a + 16.064177579207;
      d = d * a + 86.7807322029461;
      d = d * a + 296.564248779674;
      d = d * a + 637.333633378831;
      d = d * a + 793.826512519948;
      d = d * a + 440.413735824752;
      tail = (e * n) / d;
    } else {
      let b = a + 0.65;
      b = a + 4 / b;
      b = a + 3 / b;
      b = a + 2 / b;
      b = a + 1 / b;
      tail = e / b / 2.506628274631;
    }
  }
  return x > 0 ? 1 - tail : tail;
}

/** The standard normal density. */
export function normPdf(x: number): number {
  return INV_SQRT_2PI * Math.exp(-0.5 * x * x);
}

/** What the option is worth exercised now: max(S − K, 0) for a call, max(K − S, 0) for a put. */
export function intrinsic(kind: OptionKind, spot: number, strike: number): number {
  return kind === 'CE' ? Math.max(spot - strike, 0) : Math.max(strike - spot, 0);
}

/** The Black–Scholes price per unit; intrinsic value when no time (years ≤ 0) or no volatility is left. */
export function bsPrice(
  kind: OptionKind,
  spot: number,
  strike: number,
  years: number,
  rate: number,
  iv: number,
): number {
  if (!(years > 0) || !(iv > 0)) return intrinsic(kind, spot, strike);
  const v = iv * Math.sqrt(years);
  const d1 = (Math.log(spot / strike) + (rate + 0.5 * iv * iv) * years) / v;
  const d2 = d1 - v;
  const df = strike * Math.exp(-rate * years);
  return kind === 'CE' ? spot * normCdf(d1) - df * normCdf(d2) : df * normCdf(-d2) - spot * normCdf(-d1);
}

export interface Greeks {
  /** Price change per 1 rupee of spot. */
  delta: number;
  /** Delta change per 1 rupee of spot. */
  gamma: number;
  /** Price change per calendar day (rupees; negative for a bought option as time passes). */
  theta: number;
  /** Price change per 1 IV point (0.01). */
  vega: number;
}

/** Per-unit greeks; with no time or volatility left, delta is the intrinsic's slope and the rest 0. */
export function bsGreeks(
  kind: OptionKind,
  spot: number,
  strike: number,
  years: number,
  rate: number,
  iv: number,
): Greeks {
  if (!(years > 0) || !(iv > 0)) {
    const itm = kind === 'CE' ? spot > strike : spot < strike;
    return { delta: itm ? (kind === 'CE' ? 1 : -1) : 0, gamma: 0, theta: 0, vega: 0 };
  }
  const sqrtT = Math.sqrt(years);
  const v = iv * sqrtT;
  const d1 = (Math.log(spot / strike) + (rate + 0.5 * iv * iv) * years) / v;
  const d2 = d1 - v;
  const pdf = normPdf(d1);
  const df = strike * Math.exp(-rate * years);
  const decay = (-spot * pdf * iv) / (2 * sqrtT);
  const thetaYear = kind === 'CE' ? decay - rate * df * normCdf(d2) : decay + rate * df * normCdf(-d2);
  return {
    delta: kind === 'CE' ? normCdf(d1) : normCdf(d1) - 1,
    gamma: pdf / (spot * v),
    theta: thetaYear / CALENDAR_DAYS,
    vega: (spot * pdf * sqrtT) / 100,
  };
}

/**
 * The volatility at which bsPrice gives `price`, by Newton's method kept inside a bisection bracket;
 * null when none does: no time left, or the price at or below the zero-volatility value
 * (max(S − K·e^(−rT), 0) for a call, max(K·e^(−rT) − S, 0) for a put), or at or above the ceiling
 * (S for a call, K·e^(−rT) for a put), or beyond 1,000 % volatility.
 */
export function impliedVol(
  kind: OptionKind,
  price: number,
  spot: number,
  strike: number,
  years: number,
  rate: number,
): number | null {
  if (!(years > 0) || !Number.isFinite(price) || !(spot > 0) || !(strike > 0)) return null;
  const df = strike * Math.exp(-rate * years);
  const floor = kind === 'CE' ? Math.max(spot - df, 0) : Math.max(df - spot, 0);
  const ceiling = kind === 'CE' ? spot : df;
  if (!(price > floor) || !(price < ceiling)) return null;
  const tolerance = 1e-12 * Math.max(1, price);

  let lo = 0;
  let hi = 2;
  while (bsPrice(kind, spot, strike, years, rate, hi) < price) {
    lo = hi;
    hi *= 2;
    if (hi > 10) return null;
  }
  // Brenner–Subrahmanyam's at-the-money guess, kept inside the bracket.
  let iv = Math.sqrt((2 * Math.PI) / years) * (price / spot);
  if (!(iv > lo && iv < hi)) iv = 0.5 * (lo + hi);
  const sqrtT = Math.sqrt(years);
  for (let i = 0; i < 200; i++) {
    const diff = bsPrice(kind, spot, strike, years, rate, iv) - price;
    if (Math.abs(diff) <= tolerance) return iv;
    if (diff > 0) hi = iv;
    else lo = iv;
    const v = iv * sqrtT;
    const d1 = (Math.log(spot / strike) + (rate + 0.5 * iv * iv) * years) / v;
    const vega = spot * normPdf(d1) * sqrtT;
    let next = vega > 0 ? iv - diff / vega : Number.NaN;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (hi - lo <= 1e-15 * hi) return next;
    iv = next;
  }
  return iv;
}
