// Pasted basket lines: good lines become legs exactly as typed, every bad line is named by its number
// and field with a reason, and nothing of a bad line becomes a leg.
import { describe, expect, it } from 'vitest';
import {
  MAX_BASKET_LINES,
  describeLineError,
  legToLine,
  parseBasketLines,
} from '../../../src-renderer/src/lib/basket-lines';

describe('parseBasketLines', () => {
  it('reads market and limit legs, any case, skipping blanks and comments', () => {
    const r = parseBasketLines(
      [
        'sbin nse buy 10',
        '',
        '# hedge',
        'NIFTY25NOV2624000CE NFO SELL 65 120.05',
        'M&M  NSE\tsell 3 2875.5',
      ].join('\n'),
      'MIS',
    );
    expect(r.errors).toEqual([]);
    expect(r.legs).toEqual([
      expect.objectContaining({
        symbol: 'SBIN',
        exchange: 'NSE',
        action: 'BUY',
        quantity: 10,
        pricetype: 'MARKET',
        price: 0,
        product: 'MIS',
      }),
      expect.objectContaining({
        symbol: 'NIFTY25NOV2624000CE',
        exchange: 'NFO',
        action: 'SELL',
        quantity: 65,
        pricetype: 'LIMIT',
        price: 120.05,
      }),
      expect.objectContaining({ symbol: 'M&M', action: 'SELL', quantity: 3, price: 2875.5 }),
    ]);
  });

  it('gives a derivative leg the exchange’s usual product when the basket’s is refused there', () => {
    const r = parseBasketLines('NIFTY25NOV26FUT NFO BUY 65', 'CNC');
    expect(r.legs[0]?.product).toBe('NRML');
  });

  it('names each bad line by number and field, with the reason', () => {
    const text = [
      'SBIN NSE BUY 10', // 1 good
      'SBIN NSX BUY 10', // 2 exchange
      'SBIN NSE HOLD 10', // 3 action
      'SBIN NSE BUY 1.5', // 4 quantity
      'SBIN NSE BUY 0', // 5 quantity
      'SBIN NSE BUY 10 abc', // 6 price
      'SBIN NSE BUY', // 7 missing quantity
      'NIFTY NSE_INDEX BUY 1', // 8 quote-only
      'SBIN NSE BUY 10 905 extra', // 9 too many
      'SB!N NSE BUY 1', // 10 symbol
      'SBIN NSE BUY 10 -5', // 11 price sign
    ].join('\n');
    const r = parseBasketLines(text);
    expect(r.legs).toHaveLength(1);
    expect(r.errors.map((e) => [e.line, e.field])).toEqual([
      [2, 'exchange'],
      [3, 'action'],
      [4, 'quantity'],
      [5, 'quantity'],
      [6, 'price'],
      [7, 'quantity'],
      [8, 'exchange'],
      [9, 'line'],
      [10, 'symbol'],
      [11, 'price'],
    ]);
    const byLine = (n: number) => describeLineError(r.errors.find((e) => e.line === n)!);
    expect(byLine(2)).toBe(
      'Line 2, exchange "NSX": not an exchange orders go to (NSE, BSE, NFO, BFO, MCX, CDS, BCD, NCDEX, NCO)',
    );
    expect(byLine(3)).toBe('Line 3, action "HOLD": must be BUY or SELL');
    expect(byLine(7)).toMatch(/^Line 7, quantity: missing/);
    expect(byLine(8)).toMatch(/quote-only/);
    expect(byLine(6)).toBe('Line 6, price "abc": must be a number such as 905.35');
    expect(byLine(11)).toBe('Line 11, price "-5": must be above 0 (leave it out for a market order)');
  });

  it('reports every bad field of one line, and keeps none of it', () => {
    const r = parseBasketLines('SBIN NSX HOLD x');
    expect(r.legs).toEqual([]);
    expect(r.errors.map((e) => e.field)).toEqual(['exchange', 'action', 'quantity']);
  });

  it('refuses lines past the basket’s size, by number', () => {
    const lines = Array.from({ length: MAX_BASKET_LINES + 2 }, (_, i) => `SBIN NSE BUY ${i + 1}`);
    const r = parseBasketLines(lines.join('\n'));
    expect(r.legs).toHaveLength(MAX_BASKET_LINES);
    expect(r.errors.map((e) => e.line)).toEqual([MAX_BASKET_LINES + 1, MAX_BASKET_LINES + 2]);
  });

  it('writes a leg back as a line it reads the same', () => {
    const r = parseBasketLines('INFY NSE SELL 4 1510.45\nSBIN NSE BUY 2');
    const again = parseBasketLines(r.legs.map(legToLine).join('\n'));
    expect(again.legs).toEqual(r.legs);
  });
});
