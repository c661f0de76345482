// The number helpers main's sums and checks use (exact on JS numbers).
import { describe, expect, it } from 'vitest';
import { compareProduct, decimalsOf, isTickMultiple, toScaled } from '../../../src-main/shared/decimal.js';

describe('exact decimals', () => {
  it('decimalsOf and toScaled', () => {
    expect(decimalsOf(100.05)).toBe(2);
    expect(decimalsOf(1e-7)).toBe(7);
    expect(decimalsOf(1.5e-7)).toBe(8);
    expect(decimalsOf(1e21)).toBe(0);
    expect(toScaled(100.05, 2)).toBe(10005n);
    expect(toScaled(-0.0025, 4)).toBe(-25n);
    expect(toScaled(1e21, 0)).toBe(10n ** 21n);
    expect(() => toScaled(0.125, 2)).toThrow(RangeError);
  });

  it('isTickMultiple', () => {
    expect(isTickMultiple(100.05, 0.05)).toBe(true);
    expect(isTickMultiple(100.03, 0.05)).toBe(false);
    expect(isTickMultiple(83.0025, 0.0025)).toBe(true);
    expect(isTickMultiple(0.3, 0.1)).toBe(true);
    expect(isTickMultiple(100, 0)).toBe(false);
    expect(isTickMultiple(Number.NaN, 0.05)).toBe(false);
  });

  it('compareProduct', () => {
    expect(compareProduct(3, 0.1, 0.3)).toBe(0);
    expect(compareProduct(10_000, 100, 10_00_000)).toBe(0);
    expect(compareProduct(10_001, 100, 10_00_000)).toBe(1);
    expect(compareProduct(1, 0.29, 0.3)).toBe(-1);
  });
});
