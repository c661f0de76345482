import { describe, expect, it } from 'vitest';
import {
  compareProduct,
  decimalsOf,
  formatIstDateTime,
  formatIstIso,
  formatIstTime,
  formatMoney,
  formatPercent,
  formatQty,
  isTickMultiple,
  toScaled,
} from '../../../../src-main/contract/index.js';

describe('en-IN formatting', () => {
  it('money in lakh/crore grouping with two decimals', () => {
    expect(formatMoney(1234567.5)).toBe('₹12,34,567.50');
    expect(formatMoney(10_00_000)).toBe('₹10,00,000.00');
    expect(formatMoney(12_34_56_789.1)).toBe('₹12,34,56,789.10');
    expect(formatMoney(-1200)).toBe('-₹1,200.00');
    expect(formatMoney(-0.001)).toBe('₹0.00');
    expect(formatMoney(Number.NaN)).toBe('₹—');
  });

  it('money rounds for display to the tick size decimals', () => {
    expect(formatMoney(83.12345, 0.0025)).toBe('₹83.1235');
    expect(formatMoney(100.05, 0.05)).toBe('₹100.05');
    expect(formatMoney(250, 1)).toBe('₹250.00');
  });

  it('quantities and percentages', () => {
    expect(formatQty(125000)).toBe('1,25,000');
    expect(formatQty(12)).toBe('12');
    expect(formatQty(0.5)).toBe('0.5');
    expect(formatPercent(5.1)).toBe('5.10%');
  });

  it('IST time regardless of the machine time zone', () => {
    const t = Date.UTC(2024, 4, 14, 3, 45, 2, 123); // 09:15:02.123 IST
    expect(formatIstTime(t)).toBe('09:15:02');
    expect(formatIstDateTime(t)).toBe('14-May-2024 09:15:02');
    expect(formatIstIso(t)).toBe('2024-05-14T09:15:02.123+05:30');
    expect(formatIstIso(Date.UTC(2024, 11, 31, 20, 0, 0))).toBe('2025-01-01T01:30:00.000+05:30');
  });
});

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
