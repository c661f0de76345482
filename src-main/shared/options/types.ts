// The options strategy arithmetic's shapes (issue 27, docs/strategies.md), shared by the builder in
// the renderer, the core and the benches. Prices and strikes are rupees; quantities are units (lots ×
// lot size, signed by the side where said); IV is a fraction (0.15 for 15 %); times are epoch ms.
export type OptionKind = 'CE' | 'PE';
export type LegSide = 'BUY' | 'SELL';

/** One leg of a strategy as the payoff sees it. */
export interface PayoffLeg {
  kind: OptionKind;
  strike: number;
  side: LegSide;
  /** Units, more than 0. */
  quantity: number;
  /** The price paid (BUY) or received (SELL) per unit: the entry premium. */
  premium: number;
  /** The leg's implied volatility as a fraction; null when unknown (the "today" curve then uses `fallbackIv`). */
  iv: number | null;
  /** The contract's expiry: 15:30 IST of its expiry day, epoch ms. */
  expiryMs: number;
}

/** What the curves are drawn for: the spot grid, the time "today" means, and the what-ifs. */
export interface PayoffOptions {
  /** Spot prices, ascending. */
  spots: ArrayLike<number>;
  /** "Today": the time the today curve values each leg at (epoch ms). */
  nowMs: number;
  /** Added to every leg's IV (a fraction: +0.02 is two IV points). */
  ivShift?: number;
  /** The risk-free rate, a fraction (default 0.07). */
  rate?: number;
  /** The IV used for a leg whose own is null (default 0.15). */
  fallbackIv?: number;
}

/**
 * P&L in rupees at each spot: `expiry` at the first expiry among the legs (a later leg valued by
 * Black–Scholes with its time left then), `today` at `nowMs` by Black–Scholes.
 */
export interface PayoffCurves {
  spots: Float64Array;
  expiry: Float64Array;
  today: Float64Array;
}

export interface NetGreeks {
  /** Rupees per 1 rupee of spot, position-weighted (units × side). */
  delta: number;
  gamma: number;
  /** Rupees per calendar day. */
  theta: number;
  /** Rupees per 1 IV point. */
  vega: number;
}

export interface StrategyStats {
  /** Spots where the expiry curve crosses 0, ascending. */
  breakevens: number[];
  /**
   * Rupees, at least 0; 'unlimited' when the expiry curve keeps rising as spot climbs (bought calls
   * outnumber sold ones). The spot floors at 0, so the downside end is finite: its value at S = 0.
   */
  maxProfit: number | 'unlimited';
  /**
   * Rupees as a positive number (0 when no spot loses); 'unlimited' when the expiry curve keeps
   * falling as spot climbs (sold calls outnumber bought ones). The downside end is its value at S = 0.
   */
  maxLoss: number | 'unlimited';
  /** Probability (0–1) the expiry P&L is above 0, from a lognormal spot with the legs' mean IV; null without IV. */
  pop: number | null;
  /** Rupees received (> 0, a credit) or paid (< 0, a debit) for the whole strategy. */
  netPremium: number;
  greeks: NetGreeks;
}

/** A template's leg: a strike `offset` steps from the at-the-money strike (+ higher, − lower). */
export interface TemplateLeg {
  kind: OptionKind;
  side: LegSide;
  offset: number;
  /** 0: the chosen expiry; 1: the next one listed (calendars). */
  expiry: 0 | 1;
  /** Lots, more than 0. */
  lots: number;
}

export interface StrategyTemplate {
  id: string;
  name: string;
  legs: readonly TemplateLeg[];
}
