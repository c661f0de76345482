// The strategy's P&L at one moment as a function of spot, with every per-leg constant worked out
// once (σ√T, the drift term, the discounted strike), so a curve of hundreds of spots costs a log per
// spot and two normal CDFs per leg and spot, with no allocation. Shared by payoff.ts and stats.ts.
import { normCdf } from './black-scholes.js';
import type { PayoffLeg } from './types.js';
import { tradingYears } from './trading-time.js';

export const DEFAULT_RATE = 0.07;
export const DEFAULT_IV = 0.15;
/** The lowest IV a leg is valued at, whatever the what-if shift. */
export const MIN_IV = 0.0001;

/** The what-ifs and defaults as payoffCurves and strategyStats take them. */
export interface ModelOptions {
  rate?: number;
  ivShift?: number;
  fallbackIv?: number;
}

/** A leg's IV as valued: its own (or the fallback) plus the shift, never below MIN_IV. */
export function legIv(leg: PayoffLeg, o: ModelOptions): number {
  return Math.max(MIN_IV, (leg.iv ?? o.fallbackIv ?? DEFAULT_IV) + (o.ivShift ?? 0));
}

/** The first expiry among the legs (NaN for none). */
export function firstExpiry(legs: readonly PayoffLeg[]): number {
  let first = Number.NaN;
  for (const leg of legs) if (!(leg.expiryMs >= first)) first = leg.expiryMs;
  return first;
}

/** The legs valued at one moment, as parallel arrays. */
export interface CurveModel {
  n: number;
  call: Uint8Array;
  strike: Float64Array;
  lnStrike: Float64Array;
  /** Units, + bought, − sold. */
  signedQty: Float64Array;
  premium: Float64Array;
  /** σ√T; 0 when the leg is at expiry (valued at intrinsic). */
  volRoot: Float64Array;
  /** (r + σ²/2)·T. */
  drift: Float64Array;
  /** K·e^(−rT). */
  discounted: Float64Array;
}

/** The legs valued at `atMs`: each with its trading time left then. */
export function curveModel(legs: readonly PayoffLeg[], atMs: number, o: ModelOptions): CurveModel {
  const n = legs.length;
  const rate = o.rate ?? DEFAULT_RATE;
  const m: CurveModel = {
    n,
    call: new Uint8Array(n),
    strike: new Float64Array(n),
    lnStrike: new Float64Array(n),
    signedQty: new Float64Array(n),
    premium: new Float64Array(n),
    volRoot: new Float64Array(n),
    drift: new Float64Array(n),
    discounted: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const leg = legs[i] as PayoffLeg;
    const years = tradingYears(atMs, leg.expiryMs);
    const iv = legIv(leg, o);
    m.call[i] = leg.kind === 'CE' ? 1 : 0;
    m.strike[i] = leg.strike;
    m.lnStrike[i] = Math.log(leg.strike);
    m.signedQty[i] = leg.side === 'BUY' ? leg.quantity : -leg.quantity;
    m.premium[i] = leg.premium;
    m.volRoot[i] = years > 0 ? iv * Math.sqrt(years) : 0;
    m.drift[i] = (rate + 0.5 * iv * iv) * years;
    m.discounted[i] = leg.strike * Math.exp(-rate * years);
  }
  return m;
}

/** The strategy's P&L (rupees) at `spot`; `lnSpot` is Math.log(spot), passed in to share it. */
export function pnlAt(m: CurveModel, spot: number, lnSpot: number): number {
  let pnl = 0;
  for (let i = 0; i < m.n; i++) {
    const k = m.strike[i] as number;
    const v = m.volRoot[i] as number;
    let value: number;
    if (v > 0) {
      const d1 = (lnSpot - (m.lnStrike[i] as number) + (m.drift[i] as number)) / v;
      const d2 = d1 - v;
      const df = m.discounted[i] as number;
      value =
        m.call[i] === 1 ? spot * normCdf(d1) - df * normCdf(d2) : df * normCdf(-d2) - spot * normCdf(-d1);
    } else {
      value = m.call[i] === 1 ? (spot > k ? spot - k : 0) : k > spot ? k - spot : 0;
    }
    pnl += (m.signedQty[i] as number) * (value - (m.premium[i] as number));
  }
  return pnl;
}

/** pnlAt with its own log. */
export function pnl(m: CurveModel, spot: number): number {
  return pnlAt(m, spot, Math.log(spot));
}
