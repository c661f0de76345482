// Black-Scholes greeks and implied volatility, on the same model the simulator prices options with
// (market/option-model.ts). Units as upstream reports them: IV in percent, theta per calendar day,
// vega and rho per one percentage point.
import { blackScholesTerms, normCdf, optionPrice } from '../market/option-model.js';

export interface Greeks {
  /** Annualised, percent (15.6 = 15.6%). */
  impliedVolatility: number;
  delta: number;
  gamma: number;
  theta: number;
  vega: number;
  rho: number;
}

function normPdf(x: number): number {
  return Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI);
}

/** Smallest and largest volatility the solver considers (0.1% .. 500%). */
const VOL_MIN = 0.001;
const VOL_MAX = 5;

/**
 * The volatility at which the model price equals `price`, by bisection (the price is increasing in
 * volatility). 0 when the price is at or below what the smallest volatility gives (intrinsic value).
 */
export function impliedVolatility(
  isCall: boolean,
  price: number,
  spot: number,
  strike: number,
  tau: number,
  r: number,
): number {
  if (tau <= 0 || price <= 0) return 0;
  let lo = VOL_MIN;
  let hi = VOL_MAX;
  if (price <= optionPrice(isCall, spot, strike, tau, lo, r)) return 0;
  if (price >= optionPrice(isCall, spot, strike, tau, hi, r)) return hi;
  for (let i = 0; i < 100 && hi - lo > 1e-7; i++) {
    const mid = (lo + hi) / 2;
    if (optionPrice(isCall, spot, strike, tau, mid, r) < price) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Greeks at volatility `vol` (a fraction); an IV of 0 falls back to the smallest volatility. */
export function greeksAt(
  isCall: boolean,
  spot: number,
  strike: number,
  tau: number,
  vol: number,
  r: number,
): Omit<Greeks, 'impliedVolatility'> {
  const v = Math.max(vol, VOL_MIN);
  const t = Math.max(tau, 1e-9);
  const { sq, d1, d2, df } = blackScholesTerms(spot, strike, t, v, r);
  const pdf = normPdf(d1);
  const delta = isCall ? normCdf(d1) : normCdf(d1) - 1;
  const gamma = pdf / (spot * sq);
  const carry = isCall ? -r * strike * df * normCdf(d2) : r * strike * df * normCdf(-d2);
  const thetaYear = (-spot * pdf * v) / (2 * Math.sqrt(t)) + carry;
  const vega = spot * pdf * Math.sqrt(t);
  const rho = isCall ? strike * t * df * normCdf(d2) : -strike * t * df * normCdf(-d2);
  return { delta, gamma, theta: thetaYear / 365, vega: vega / 100, rho: rho / 100 };
}

const round = (x: number, places: number): number => {
  const f = 10 ** places;
  return Math.round(x * f) / f;
};

/** IV from the option's price, then the greeks at that IV, rounded as upstream prints them. */
export function optionGreeks(
  isCall: boolean,
  price: number,
  spot: number,
  strike: number,
  tau: number,
  r: number,
): Greeks {
  const iv = impliedVolatility(isCall, price, spot, strike, tau, r);
  const g = greeksAt(isCall, spot, strike, tau, iv, r);
  return {
    impliedVolatility: round(iv * 100, 2),
    delta: round(g.delta, 4),
    gamma: round(g.gamma, 6),
    theta: round(g.theta, 4),
    vega: round(g.vega, 4),
    rho: round(g.rho, 6),
  };
}
