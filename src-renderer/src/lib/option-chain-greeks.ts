// The option chain's optional columns per leg (OI, change, IV and the greeks): their headings, how
// each cell reads, which show by default, and the greeks answer keyed like the chain's quotes.
import type { CHAIN_COLUMNS, ChainColumn, LegGreeks, OptionGreeksView } from '@contract';
import { parseDecimal, toFixedText } from '@shared/decimal.js';
import { DASH, formatPercent, formatQty } from '@shared/format.js';
import { chainKey } from './option-chain';

/**
 * Outermost first, as calls read them left to right (puts mirror them). The contract's list restated
 * (the renderer imports contract types only): its type holds these exact ids, so tsc refuses drift.
 */
export const CHAIN_COLUMN_ORDER: typeof CHAIN_COLUMNS = [
  'oi',
  'chg',
  'vega',
  'theta',
  'gamma',
  'delta',
  'iv',
];

/** The chooser's order: as traders name them, the greeks from IV down. */
export const CHAIN_MENU_ORDER: readonly ChainColumn[] = [
  'oi',
  'chg',
  'iv',
  'delta',
  'gamma',
  'theta',
  'vega',
];

/** Shown until the trader chooses: today's OI and change, with IV and delta. */
export const DEFAULT_CHAIN_COLUMNS: readonly ChainColumn[] = ['oi', 'chg', 'delta', 'iv'];

export const CHAIN_COLUMN_INFO: Record<ChainColumn, { head: string; name: string }> = {
  oi: { head: 'OI', name: 'Open interest' },
  chg: { head: 'Chg %', name: 'Change %' },
  iv: { head: 'IV', name: 'Implied volatility' },
  delta: { head: 'Delta', name: 'Delta' },
  gamma: { head: 'Gamma', name: 'Gamma' },
  theta: { head: 'Theta', name: 'Theta (per day)' },
  vega: { head: 'Vega', name: 'Vega (per 1% IV)' },
};

export type GreekColumn = 'iv' | 'delta' | 'gamma' | 'theta' | 'vega';
export const isGreek = (c: ChainColumn): c is GreekColumn => c !== 'oi' && c !== 'chg';

/** The shown columns in screen order for one side: calls outermost first, puts innermost first. */
export function sideColumns(shown: readonly ChainColumn[], side: 'CE' | 'PE'): ChainColumn[] {
  const inOrder = CHAIN_COLUMN_ORDER.filter((c) => shown.includes(c));
  return side === 'CE' ? inOrder : inOrder.reverse();
}

/** Decimals each greek reads at: IV (percent) to 0.1, delta to 0.01, gamma to 0.0001 (index gammas are that small). */
const PLACES: Record<GreekColumn, number> = { iv: 1, delta: 2, gamma: 4, theta: 2, vega: 2 };

/** A greek cell's text: IV as a percentage (the gateway gives percent), greeks at fixed decimals. */
export function greekText(g: LegGreeks | undefined, column: GreekColumn): string {
  const v = g?.[column];
  if (v === null || v === undefined) return DASH;
  const d = parseDecimal(v);
  if (!d) return DASH;
  const text = toFixedText(d, PLACES[column]);
  if (column === 'iv') return `${text}%`;
  // A value that rounds to zero carries no sign.
  return /[1-9]/.test(text) ? text : text.replace('-', '');
}

/**
 * An OI cell's text, as Indian chains show it: up to 99,999 in full, then in lakhs (12.35L) and crores
 * (1.23Cr) to two places, so the column stays narrow; the cell's title has the full figure.
 */
export function oiText(oi: number | null | undefined): string {
  if (!oi) return DASH;
  const abs = Math.abs(oi);
  if (abs < 1e5) return formatQty(oi);
  return abs < 1e7 ? `${(oi / 1e5).toFixed(2)}L` : `${(oi / 1e7).toFixed(2)}Cr`;
}

/** A leg's change % under its LTP, signed, and its tone ('up', 'down' or '' when flat or unknown). */
export function changeText(v: number | null | undefined): string {
  return v === null || v === undefined ? DASH : formatPercent(v);
}
export function changeTone(v: number | null | undefined): '' | 'up' | 'down' {
  return v === null || v === undefined || v === 0 ? '' : v > 0 ? 'up' : 'down';
}

/** The answer keyed `EXCHANGE:SYMBOL`, as the chain keys its quotes. */
export function greeksByKey(view: OptionGreeksView): Map<string, LegGreeks> {
  return new Map(view.greeks.map((g) => [chainKey(g), g]));
}

/** The shown set after the trader ticks or unticks one column. */
export function toggleColumn(shown: readonly ChainColumn[], column: ChainColumn): ChainColumn[] {
  const next = shown.includes(column) ? shown.filter((c) => c !== column) : [...shown, column];
  return CHAIN_COLUMN_ORDER.filter((c) => next.includes(c));
}
