// Derivative pricing: futures at cost of carry, European options by Black-Scholes. For a fixed
// day (fixed time to expiry) both are monotone in the underlying price, which is what lets an
// option's bar extremes be taken from the underlying's.

export const RISK_FREE_RATE = 0.065;
export const YEAR_SEC = 365 * 86_400;

/**
 * Standard normal CDF, Hart's double-precision rational approximation (as given by G. West, 2005).
 * Accurate to ~1e-14, which keeps option prices monotone in the underlying after tick rounding.
 */
export function normCdf(x: number): number {
  const z = Math.abs(x);
  let c: number;
  if (z > 37) {
    c = 0;
  } else {
    const e = Math.exp((-z * z) / 2);
    if (z < 7.07106781186547) {
      let n = 3.52624965998911e-2 * z + 0.700383064443688;
      n = n * z + 6.37396220353165;
      n = n * z + 33.912866078383;
      n = n * z + 112.079291497871;
      n = n * z + 221.213596169931;
      n = n * z + 220.206867912376;
      let d = 8.83883476483184e-2 * z + 1.75566716318264;
      d = d * z + 16.064177579207;
      d = d * z + 86.7807322029461;
      d = d * z + 296.564248779674;
      d = d * z + 637.333633378831;
      d = d * z + 793.826512519948;
      d = d * z + 440.413735824752;
      c = (e * n) / d;
    } else {
      let b = z + 0.65;
      b = z + 4 / b;
      b = z + 3 / b;
      b = z + 2 / b;
      b = z + 1 / b;
      c = e / b / 2.506628274631;
    }
  }
  return x > 0 ? 1 - c : c;
}

/** Black-Scholes' d1 and d2, the volatility over the term (vol·√tau) and the discount factor. */
export function blackScholesTerms(
  spot: number,
  strike: number,
  tau: number,
  vol: number,
  r: number,
): { sq: number; d1: number; d2: number; df: number } {
  const sq = vol * Math.sqrt(tau);
  const d1 = (Math.log(spot / strike) + (r + (vol * vol) / 2) * tau) / sq;
  return { sq, d1, d2: d1 - sq, df: Math.exp(-r * tau) };
}

/** Black-Scholes price floored at intrinsic value; tau in years. */
export function optionPrice(
  isCall: boolean,
  spot: number,
  strike: number,
  tau: number,
  vol: number,
  r: number,
): number {
  const intrinsic = isCall ? Math.max(0, spot - strike) : Math.max(0, strike - spot);
  if (tau <= 0 || vol <= 0 || strike <= 0) return intrinsic;
  const { d1, d2, df } = blackScholesTerms(spot, strike, tau, vol, r);
  const p = isCall
    ? spot * normCdf(d1) - strike * df * normCdf(d2)
    : strike * df * normCdf(-d2) - spot * normCdf(-d1);
  return Math.max(p, intrinsic);
}

/** Futures fair value multiplier for tau years to expiry. */
export function carryFactor(tau: number, r: number = RISK_FREE_RATE): number {
  return tau > 0 ? Math.exp(r * tau) : 1;
}
