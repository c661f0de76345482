// OpenAlgo symbol format (docs/gateway-behaviour.md section 8.1) and Upstox-style broker symbols.
import * as calendar from './calendar.js';
import * as strikes from './strikes.js';

// Module constants rather than imported bindings: loaders (tsx, vitest) turn those into getters, a
// measurable cost when formatting ~120k symbols.
const { brokerDate, symbolDate } = calendar;
const { formatStrike } = strikes;

/** `NIFTY28NOV24FUT` */
export function futureSymbol(underlying: string, expiryIso: string): string {
  return `${underlying}${symbolDate(expiryIso)}FUT`;
}

/** `NIFTY28NOV2424000CE`, `VEDL25APR24292.5CE` */
export function optionSymbol(
  underlying: string,
  expiryIso: string,
  strike: number,
  type: 'CE' | 'PE',
): string {
  return `${underlying}${symbolDate(expiryIso)}${formatStrike(strike)}${type}`;
}

/** `NIFTY FUT 25 AUG 26` */
export function futureBrSymbol(underlying: string, expiryIso: string): string {
  return `${underlying} FUT ${brokerDate(expiryIso)}`;
}

/** `NIFTY 26000 CE 29 DEC 26` */
export function optionBrSymbol(
  underlying: string,
  expiryIso: string,
  strike: number,
  type: 'CE' | 'PE',
): string {
  return `${underlying} ${formatStrike(strike)} ${type} ${brokerDate(expiryIso)}`;
}

/**
 * The master's spelling of a request symbol (every master symbol is upper-case). Placeorder has
 * always upper-cased, so every endpoint does: `sbin` is SBIN for depth and quotes as for orders.
 */
export function normaliseSymbol(symbol: string): string {
  return symbol.trim().toUpperCase();
}
