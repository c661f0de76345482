// Fixed-point money for the ledger. Prices and amounts are stored as integers of ₹0.0001 ("units"):
// CDS ticks are ₹0.0025, so paise are too coarse, and integers keep tick checks and the funds
// identity exact. qty × price stays far below 2^53 for any realistic order (1.8e6 × ₹1e5 → 1.8e15).

export const UNITS_PER_RUPEE = 10_000;
const UNITS_PER_PAISA = 100;

/** Rupees to units; undefined when the value has more precision than a unit can hold. */
export function toUnitsExact(rupees: number): number | undefined {
  const scaled = rupees * UNITS_PER_RUPEE;
  const units = Math.round(scaled);
  return Math.abs(scaled - units) < 1e-6 ? units : undefined;
}

/** Rupees to units, rounded to the nearest unit (for prices that come from the simulator). */
export function toUnits(rupees: number): number {
  return Math.round(rupees * UNITS_PER_RUPEE);
}

export function toRupees(units: number): number {
  return units / UNITS_PER_RUPEE;
}

/** Units rounded half away from zero to whole paise, as rupees (a number with at most 2 decimals). */
export function toRupees2(units: number): number {
  return paiseOf(units) / 100;
}

function paiseOf(units: number): number {
  const p = Math.round(Math.abs(units) / UNITS_PER_PAISA);
  return units < 0 && p !== 0 ? -p : p;
}

/** Units as a two-decimal string rounded to the paisa, e.g. 12345 → "1.23", -5000 → "-0.50". */
export function formatMoney(units: number): string {
  const p = paiseOf(units);
  const abs = Math.abs(p);
  const whole = Math.floor(abs / 100);
  const frac = String(abs % 100).padStart(2, '0');
  return `${p < 0 ? '-' : ''}${whole}.${frac}`;
}

/** Smallest number of units that is at least `units / divisor` (margins round up, never down). */
export function ceilDiv(units: number, divisor: number): number {
  return Math.ceil(units / divisor);
}

/** Tick size in units; tick sizes finer than a unit are rounded up to one unit. */
export function tickUnits(tickSize: number): number {
  return Math.max(1, toUnits(tickSize));
}

/** A price (rupees) written as it would be on a tick grid, for messages: 100.03 → "100.03". */
export function formatPrice(rupees: number): string {
  return String(Number(rupees.toFixed(4)));
}
