// The ticket's defaults per segment (lib/ticket-defaults): which segment an exchange is in, and what a
// new symbol loads with, the saved choice where the exchange takes its product.
import { describe, expect, it } from 'vitest';
import {
  PRICE_TYPE_CYCLE,
  defaultsFor,
  nextOf,
  segmentOf,
} from '../../../src-renderer/src/lib/ticket-defaults';

describe('ticket defaults per segment', () => {
  it('groups the exchanges into equity, F&O and commodity; indices are none', () => {
    expect(['NSE', 'BSE', 'NFO', 'BFO', 'CDS', 'MCX', 'NSE_INDEX'].map(segmentOf)).toEqual([
      'equity',
      'equity',
      'fno',
      'fno',
      'fno',
      'commodity',
      undefined,
    ]);
  });

  it('nothing saved: LIMIT and the usual product (CNC on cash, NRML on F&O and MCX)', () => {
    expect(defaultsFor('NSE', {})).toEqual({ priceType: 'LIMIT', product: 'CNC' });
    expect(defaultsFor('NFO', undefined)).toEqual({ priceType: 'LIMIT', product: 'NRML' });
    expect(defaultsFor('MCX', {})).toEqual({ priceType: 'LIMIT', product: 'NRML' });
  });

  it('a saved choice applies to its segment only; a product the exchange refuses falls back', () => {
    const saved = {
      equity: { priceType: 'MARKET', product: 'MIS' },
      fno: { priceType: 'SL', product: 'CNC' },
    } as const;
    expect(defaultsFor('BSE', saved)).toEqual({ priceType: 'MARKET', product: 'MIS' });
    expect(defaultsFor('BFO', saved)).toEqual({ priceType: 'SL', product: 'NRML' });
    expect(defaultsFor('MCX', saved)).toEqual({ priceType: 'LIMIT', product: 'NRML' });
    expect(defaultsFor('NSE', { equity: { priceType: 'MARKET', product: 'NRML' } })).toEqual({
      priceType: 'MARKET',
      product: 'CNC',
    });
  });

  it('the type key steps MARKET, LIMIT, SL, SL-M and round again', () => {
    expect(nextOf(PRICE_TYPE_CYCLE, 'SL-M')).toBe('MARKET');
    expect(nextOf(PRICE_TYPE_CYCLE, 'MARKET')).toBe('LIMIT');
  });
});
