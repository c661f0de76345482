// Strike ladders and strike formatting for option symbols.

/** NSE-style stock option strike interval for a price band. */
export function stockStrikeStep(price: number): number {
  if (price < 25) return 0.5;
  if (price < 100) return 1;
  if (price < 250) return 2.5;
  if (price < 500) return 5;
  if (price < 1000) return 10;
  if (price < 2500) return 20;
  if (price < 5000) return 50;
  if (price < 10000) return 100;
  if (price < 20000) return 250;
  return 500;
}

/** `halfWidth` strikes either side of the at-the-money strike, ascending; non-positive strikes dropped. */
export function strikeLadder(spot: number, step: number, halfWidth: number): number[] {
  const atm = Math.round(spot / step);
  const out: number[] = [];
  for (let k = -halfWidth; k <= halfWidth; k++) {
    // Rounding kills binary noise from steps such as 0.25 x large multiples.
    const strike = Math.round((atm + k) * step * 10_000) / 10_000;
    if (strike > 0) out.push(strike);
  }
  return out;
}

/** Whole strikes print without a decimal point, fractional ones keep it (292.5, 88.25). */
export function formatStrike(strike: number): string {
  return String(strike);
}

/** Rounds a price to a multiple of the tick. */
export function roundToTick(price: number, tick: number): number {
  const n = Math.round(price / tick);
  return Math.round(n * tick * 10_000) / 10_000;
}
