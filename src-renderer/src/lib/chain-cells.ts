// The option chain grid's price cells, free of I/O: their screen order, a cell's accessible label
// and where an arrow, Home/End or Page key moves the focus.
import { formatPrice } from '@shared/format.js';
import { displayName } from './instrument';
import {
  priceOfColumn,
  sideOfColumn,
  type ChainCell,
  type ChainRow,
  type OptionSide,
  type PriceColumn,
} from './option-chain';

/** The price cells in screen order: calls LTP, bid, ask; puts bid, ask, LTP. */
export const CHAIN_CELLS: readonly { side: OptionSide; column: PriceColumn }[] = [
  { side: 'CE', column: 'ltp' },
  { side: 'CE', column: 'bid' },
  { side: 'CE', column: 'ask' },
  { side: 'PE', column: 'bid' },
  { side: 'PE', column: 'ask' },
  { side: 'PE', column: 'ltp' },
];

export const COLUMN_NAME: Record<PriceColumn, string> = { ltp: 'LTP', bid: 'Bid', ask: 'Ask' };

/** A focused cell: the row in the shown window, the column in CHAIN_CELLS. */
export interface CellStop {
  row: number;
  col: number;
}

export function cellOf(r: ChainRow, side: OptionSide): ChainCell | undefined {
  return side === 'CE' ? r.CE : r.PE;
}

/** What a screen reader says for a price cell: the contract, the price and what a click does. */
export function cellLabel(r: ChainRow, side: OptionSide, column: PriceColumn): string {
  const c = cellOf(r, side);
  if (!c) return `${r.strikeText} ${side}: not listed`;
  const name = displayName(c.contract.symbol);
  const price = priceOfColumn(c.quote, column);
  if (price === undefined)
    return `${name} ${COLUMN_NAME[column]}: ${c.missing ? `no quote (${c.missing})` : 'no price'}`;
  const verb = sideOfColumn(column) === 'BUY' ? 'buy' : 'sell';
  return `${name} ${COLUMN_NAME[column]} ${formatPrice(price, c.contract.tickSize)}: load the ticket to ${verb}`;
}

const PAGE_ROWS = 10;

/** The cell a key moves the focus to from `at` over `rows` rows; undefined for any other key. */
export function nextCell(at: CellStop, key: string, ctrl: boolean, rows: number): CellStop | undefined {
  const { row, col } = at;
  const last = rows - 1;
  const lastCol = CHAIN_CELLS.length - 1;
  if (last < 0) return undefined;
  switch (key) {
    case 'ArrowUp':
      return { row: Math.max(0, row - 1), col };
    case 'ArrowDown':
      return { row: Math.min(last, row + 1), col };
    case 'ArrowLeft':
      return { row, col: Math.max(0, col - 1) };
    case 'ArrowRight':
      return { row, col: Math.min(lastCol, col + 1) };
    case 'Home':
      return ctrl ? { row: 0, col } : { row, col: 0 };
    case 'End':
      return ctrl ? { row: last, col } : { row, col: lastCol };
    case 'PageUp':
      return { row: Math.max(0, row - PAGE_ROWS), col };
    case 'PageDown':
      return { row: Math.min(last, row + PAGE_ROWS), col };
    default:
      return undefined;
  }
}
