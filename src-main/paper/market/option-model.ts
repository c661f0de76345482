// Derivative pricing: futures at cost of carry, European options by Black-Scholes. For a fixed
// day (fixed time to expiry) both are monotone in the underlying price, which is what lets an
// option's bar extremes be taken from the underlying's.
import { normCdf } from '../../shared/options/black-scholes.js';

export const RISK_FREE_RATE = 0.065;
export const YEAR_SEC = 365 * 86_400;

/** The standard normal CDF (Hart's approximation, ~1e-14): the options arithmetic's own. */
export { normCdf };

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
