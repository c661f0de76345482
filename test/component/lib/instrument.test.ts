import { describe, expect, it } from 'vitest';
import {
  displayName,
  isDerivativeExchange,
  parseSymbol,
  productsFor,
} from '../../../src-renderer/src/lib/instrument';

describe('display names', () => {
  it('reads options and futures as a trader does', () => {
    expect(displayName('NIFTY25NOV2624000CE')).toBe('NIFTY 25 NOV 24000 CE');
    // Kept by symbol, the plain name does not leak into one asked with a reference year.
    expect(displayName('NIFTY25NOV2624000CE')).toBe('NIFTY 25 NOV 24000 CE');
    expect(displayName('NIFTY25NOV2624000CE', { referenceYear: 2025 })).toBe('NIFTY 25 NOV 2026 24000 CE');
    expect(displayName('NIFTY25NOV26FUT')).toBe('NIFTY 25 NOV FUT');
    expect(displayName('BANKNIFTY24APR24FUT')).toBe('BANKNIFTY 24 APR FUT');
    expect(displayName('NIFTY28NOV2424000PE')).toBe('NIFTY 28 NOV 24000 PE');
  });

  it('keeps fractional strikes exactly as written', () => {
    expect(displayName('USDINR19APR2683.25CE')).toBe('USDINR 19 APR 83.25 CE');
    expect(displayName('VEDL25APR24292.5CE')).toBe('VEDL 25 APR 292.5 CE');
    const p = parseSymbol('USDINR19APR2683.25CE');
    expect(p).toMatchObject({ kind: 'option', strike: '83.25', optionType: 'CE' });
  });

  it('keeps underlyings that hold digits whole', () => {
    expect(displayName('NIFTYNXT5025NOV2670000CE')).toBe('NIFTYNXT50 25 NOV 70000 CE');
    expect(displayName('726GS203325APR24FUT')).toBe('726GS2033 25 APR FUT');
    expect(displayName('726GS203225APR2497PE')).toBe('726GS2032 25 APR 97 PE');
    expect(parseSymbol('CRUDEOILM20MAY24FUT')).toMatchObject({
      kind: 'future',
      underlying: 'CRUDEOILM',
      expiry: { day: 20, month: 'MAY', year: 2024 },
    });
  });

  it('reads the month-only NCO futures', () => {
    expect(displayName('ALUMINI26MAYFUT')).toBe('ALUMINI MAY FUT');
  });

  it('leaves equities, indices and undated symbols unchanged', () => {
    for (const s of ['SBIN', 'BAJAJ-AUTO', 'NIFTY', 'INDIAVIX', 'BTCUSDFUT', 'M&M'])
      expect(displayName(s)).toBe(s);
    // Not a day of the month: not a dated contract.
    expect(displayName('ABC45NOV26FUT')).toBe('ABC45NOV26FUT');
  });

  it('writes the year out only when it is not the reference year', () => {
    expect(displayName('NIFTY25NOV2624000CE', { referenceYear: 2026 })).toBe('NIFTY 25 NOV 24000 CE');
    expect(displayName('NIFTY24DEC2824000CE', { referenceYear: 2026 })).toBe('NIFTY 24 DEC 2028 24000 CE');
  });
});

describe('products per exchange', () => {
  it('offers CNC and MIS on the equity segments, NRML and MIS on derivatives (as the paper validation)', () => {
    expect(productsFor('NSE')).toEqual(['CNC', 'MIS']);
    expect(productsFor('BSE')).toEqual(['CNC', 'MIS']);
    for (const x of ['NFO', 'BFO', 'MCX', 'CDS', 'BCD', 'NCDEX', 'NCO']) {
      expect(productsFor(x)).toEqual(['NRML', 'MIS']);
      expect(isDerivativeExchange(x)).toBe(true);
    }
  });

  it('offers nothing on the quote-only index exchanges', () => {
    expect(productsFor('NSE_INDEX')).toEqual([]);
    expect(productsFor('BSE_INDEX')).toEqual([]);
  });
});
