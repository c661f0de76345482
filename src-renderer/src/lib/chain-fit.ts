// Which of the chosen optional chain columns fit the pane: the always-shown part (LTP, bid, ask per
// leg and the strike) plus each optional column on both legs, dropped in a fixed priority (vega,
// theta and gamma first, then OI, IV, delta) until the table is no wider than the pane. One list
// serves calls and puts, so both legs always show the same columns.
import type { ChainColumn } from '@contract';
import { CHAIN_COLUMN_INFO } from './option-chain-greeks';

/** The first to go when the pane is too narrow; a column not listed (change %, under LTP) stays. */
export const CHAIN_DROP_ORDER: readonly ChainColumn[] = ['vega', 'theta', 'gamma', 'oi', 'iv', 'delta'];

/** Widths in px: the always-shown part, and each optional column for both legs together. */
export interface ChainWidths {
  core: number;
  columns: Partial<Record<ChainColumn, number>>;
}

export interface ChainFit {
  /** The chosen columns that fit, in the order given. */
  visible: ChainColumn[];
  /** The chosen columns left out for room, in the order given. */
  hidden: ChainColumn[];
}

/**
 * The chosen columns that fit `room` px. A column whose width is not known yet counts as zero (it
 * shows, is measured, and the fit runs again); a room of 0 (not laid out) hides nothing.
 */
export function fitChainColumns(shown: readonly ChainColumn[], room: number, widths: ChainWidths): ChainFit {
  const width = (c: ChainColumn): number => widths.columns[c] ?? 0;
  let need = widths.core + shown.reduce((sum, c) => sum + width(c), 0);
  const dropped = new Set<ChainColumn>();
  if (room > 0)
    for (const c of CHAIN_DROP_ORDER) {
      if (need <= room) break;
      if (!shown.includes(c)) continue;
      dropped.add(c);
      need -= width(c);
    }
  return { visible: shown.filter((c) => !dropped.has(c)), hidden: shown.filter((c) => dropped.has(c)) };
}

/** The header's note: how many chosen columns (each on both legs) the pane has no room for, and which. */
export function hiddenNote(hidden: readonly ChainColumn[]): string {
  if (hidden.length === 0) return '';
  const names = hidden.map((c) => CHAIN_COLUMN_INFO[c].head).join(', ');
  return `${hidden.length} ${hidden.length === 1 ? 'column' : 'columns'} hidden: ${names}`;
}
