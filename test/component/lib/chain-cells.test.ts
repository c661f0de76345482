import { describe, expect, it } from 'vitest';
import { CHAIN_CELLS, cellLabel, nextCell } from '../../../src-renderer/src/lib/chain-cells';
import type { ChainRow } from '../../../src-renderer/src/lib/option-chain';

const contract = {
  symbol: 'NIFTY26NOV2524000CE',
  exchange: 'NFO',
  optionType: 'CE' as const,
  lotSize: 75,
  tickSize: 0.05,
};
const quote = { ltp: 120.5, change: 1, changePercent: 0.8, bid: 120.4, ask: 120.6, volume: 10, seq: 0 };
const row = (over: Partial<ChainRow> = {}): ChainRow =>
  ({ strike: 24000, strikeText: '24000', atm: false, ...over }) as ChainRow;

describe('chain cells', () => {
  it('lists calls LTP, bid, ask then puts bid, ask, LTP', () => {
    expect(CHAIN_CELLS.map((c) => `${c.side} ${c.column}`)).toEqual([
      'CE ltp',
      'CE bid',
      'CE ask',
      'PE bid',
      'PE ask',
      'PE ltp',
    ]);
  });

  it('labels a cell with the contract, its price and the side a click loads', () => {
    const r = row({ CE: { contract, quote, itm: false } });
    expect(cellLabel(r, 'CE', 'bid')).toMatch(/ Bid 120\.40: load the ticket to sell$/);
    expect(cellLabel(r, 'CE', 'ask')).toMatch(/ Ask 120\.60: load the ticket to buy$/);
    expect(cellLabel(r, 'PE', 'ltp')).toBe('24000 PE: not listed');
    const unquoted = row({ CE: { contract, itm: false, missing: 'no data' } });
    expect(cellLabel(unquoted, 'CE', 'ltp')).toMatch(/ LTP: no quote \(no data\)$/);
  });

  it('moves with arrows, Home/End (Ctrl: rows), Page keys, and stays inside the grid', () => {
    const at = { row: 5, col: 2 };
    expect(nextCell(at, 'ArrowUp', false, 20)).toEqual({ row: 4, col: 2 });
    expect(nextCell(at, 'ArrowDown', false, 20)).toEqual({ row: 6, col: 2 });
    expect(nextCell(at, 'ArrowLeft', false, 20)).toEqual({ row: 5, col: 1 });
    expect(nextCell(at, 'ArrowRight', false, 20)).toEqual({ row: 5, col: 3 });
    expect(nextCell(at, 'Home', false, 20)).toEqual({ row: 5, col: 0 });
    expect(nextCell(at, 'End', false, 20)).toEqual({ row: 5, col: 5 });
    expect(nextCell(at, 'Home', true, 20)).toEqual({ row: 0, col: 2 });
    expect(nextCell(at, 'End', true, 20)).toEqual({ row: 19, col: 2 });
    expect(nextCell(at, 'PageUp', false, 20)).toEqual({ row: 0, col: 2 });
    expect(nextCell(at, 'PageDown', false, 20)).toEqual({ row: 15, col: 2 });
    expect(nextCell({ row: 0, col: 5 }, 'ArrowRight', false, 20)).toEqual({ row: 0, col: 5 });
    expect(nextCell(at, 'Enter', false, 20)).toBeUndefined();
    expect(nextCell(at, 'ArrowDown', false, 0)).toBeUndefined();
  });
});
