import { describe, expect, it } from 'vitest';
import {
  formatIstDate,
  formatIstDateTime,
  formatIstIso,
  formatIstTime,
  formatMoney,
  formatPercent,
  formatPrice,
  formatPriceExact,
  formatQty,
  priceInputText,
  tickDecimals,
} from '../../../src-main/shared/format.js';

describe('money', () => {
  it('groups rupees the Indian way with two decimals', () => {
    expect(formatMoney(1234567.5)).toBe('₹12,34,567.50');
    expect(formatMoney('98412305.5')).toBe('₹9,84,12,305.50');
    expect(formatMoney(999)).toBe('₹999.00');
    expect(formatMoney(0)).toBe('₹0.00');
  });

  it('puts the sign before the rupee symbol, and + only when asked', () => {
    expect(formatMoney(-1234.5)).toBe('-₹1,234.50');
    expect(formatMoney(2340, { signed: true })).toBe('+₹2,340.00');
    expect(formatMoney(-2340, { signed: true })).toBe('-₹2,340.00');
    expect(formatMoney(0, { signed: true })).toBe('₹0.00');
    // Rounds to zero: no sign at all.
    expect(formatMoney(-0.004, { signed: true })).toBe('₹0.00');
  });

  it('rounds half away from zero on the exact decimal, not the binary float', () => {
    // 1.005 is 1.00499999999999989… as a double; toFixed(2) gives 1.00.
    expect(formatMoney(1.005)).toBe('₹1.01');
    expect(formatMoney(-1.005)).toBe('-₹1.01');
    expect(formatMoney(0.1 + 0.2)).toBe('₹0.30');
    expect(formatMoney('12345678901234567.125')).toBe('₹12,34,56,78,90,12,34,567.13');
  });

  it('shows a dash for what is not a number', () => {
    expect(formatMoney(Number.NaN)).toBe('—');
    expect(formatMoney('12a')).toBe('—');
    expect(formatMoney('')).toBe('—');
    // An exponent that would make a million-digit number is refused, not computed.
    expect(formatMoney('1e999999')).toBe('—');
    expect(formatMoney('1.5e3')).toBe('₹1,500.00');
  });
});

describe('prices at the tick', () => {
  it('uses the tick for decimals: 0.05 → 2, 0.0025 → 4, 0.01 → 2', () => {
    expect(tickDecimals(0.05)).toBe(2);
    expect(tickDecimals(0.0025)).toBe(4);
    expect(tickDecimals(0.01)).toBe(2);
    expect(tickDecimals(undefined)).toBe(2);
    expect(formatPrice(905.3, 0.05)).toBe('905.30');
    expect(formatPrice(83.25, 0.0025)).toBe('83.2500');
    expect(formatPrice(24123.45, 0.05)).toBe('24,123.45');
  });

  it('rounds to the nearest tick for display, with no float artefacts', () => {
    expect(formatPrice(905.3000000000001, 0.05)).toBe('905.30');
    expect(formatPrice(0.1 + 0.2, 0.01)).toBe('0.30');
    expect(formatPrice('905.33', 0.05)).toBe('905.35');
    expect(formatPrice('905.32', 0.05)).toBe('905.30');
    expect(formatPrice('83.2512', 0.0025)).toBe('83.2500');
    expect(formatPrice('83.25130', 0.0025)).toBe('83.2525');
  });

  it('answers a price asked again from memory, by value and tick, as it did the first time', () => {
    expect(formatPrice(83.2525, 0.0025)).toBe('83.2525');
    // The same value on another tick, and as text, is its own answer.
    expect(formatPrice(83.2525, 0.05)).toBe('83.25');
    expect(formatPrice(83.2525)).toBe('83.25');
    expect(formatPrice('83.2525', 0.0025)).toBe('83.2525');
    expect(formatPrice('x', 0.05)).toBe('—');
    // Past its bound the memory starts again; answers stay the same.
    for (let i = 0; i < 5000; i++) formatPrice(i / 20, 0.05);
    expect(formatPrice(83.2525, 0.0025)).toBe('83.2525');
    expect(formatPrice(4999 / 20, 0.05)).toBe('249.95');
  });

  it('keeps every decimal where a price must not look valid when it is not', () => {
    expect(formatPriceExact('905.33', 0.05)).toBe('905.33');
    expect(formatPriceExact('1234.3', 0.05)).toBe('1,234.30');
  });

  it('writes an input value without grouping', () => {
    expect(priceInputText(24123.4, 0.05)).toBe('24123.40');
    expect(priceInputText('x', 0.05)).toBe('');
  });
});

describe('quantities and percentages', () => {
  it('groups quantities en-IN', () => {
    expect(formatQty(125000)).toBe('1,25,000');
    expect(formatQty('1800')).toBe('1,800');
    expect(formatQty(-65)).toBe('-65');
    expect(formatQty(0.015)).toBe('0.015');
    expect(formatQty(12, { signed: true })).toBe('+12');
  });

  it('signs percentages by default, two decimals', () => {
    expect(formatPercent(0.5)).toBe('+0.50%');
    expect(formatPercent(-1.255)).toBe('-1.26%');
    expect(formatPercent(0)).toBe('0.00%');
    expect(formatPercent(5, { signed: false })).toBe('5.00%');
    expect(formatPercent(0.5, {})).toBe('+0.50%');
  });
});

describe('IST times', () => {
  // 2025-04-08T08:28:03Z is 13:58:03 in India.
  const MS = Date.UTC(2025, 3, 8, 8, 28, 3);

  it('writes epoch ms as IST wall clock', () => {
    expect(formatIstTime(MS)).toBe('13:58:03 IST');
    expect(formatIstDate(MS)).toBe('08-Apr-2025');
    expect(formatIstDateTime(MS)).toBe('08-Apr-2025 13:58:03 IST');
    // 20:00 UTC is already the next day in India.
    expect(formatIstDateTime(Date.UTC(2025, 11, 31, 20, 0, 0))).toBe('01-Jan-2026 01:30:00 IST');
  });

  it("reads the gateways' timestamp strings as IST wall clock", () => {
    expect(formatIstDateTime('2025-04-08 13:58:03')).toBe('08-Apr-2025 13:58:03 IST');
    expect(formatIstDateTime('08-Apr-2025 13:58:03')).toBe('08-Apr-2025 13:58:03 IST');
    expect(formatIstDateTime('22-NOV-2026 10:15:03')).toBe('22-Nov-2026 10:15:03 IST');
    expect(formatIstTime('13:58:03')).toBe('13:58:03 IST');
    expect(formatIstDate('13:58:03')).toBe('—');
    expect(formatIstDateTime('2025-04-08T08:28:03Z')).toBe('08-Apr-2025 13:58:03 IST');
    expect(formatIstTime('1744100883')).toBe('13:58:03 IST');
    // A date-only stamp has no time to show, and is not shown as midnight.
    expect(formatIstTime('2025-04-08')).toBe('—');
    expect(formatIstDateTime('2025-04-08')).toBe('08-Apr-2025');
  });

  it('shows an unreadable timestamp as it came, never a wrong time', () => {
    expect(formatIstTime('31-Feb-2025 10:00:00')).toBe('31-Feb-2025 10:00:00');
    expect(formatIstTime('25:00:00')).toBe('25:00:00');
    expect(formatIstTime('')).toBe('—');
    expect(formatIstTime(Number.NaN)).toBe('—');
  });
});

describe('as main writes them (risk reasons, alerts, exports, logs)', () => {
  it('money in lakh/crore grouping with two decimals', () => {
    expect(formatMoney(1234567.5)).toBe('₹12,34,567.50');
    expect(formatMoney(10_00_000)).toBe('₹10,00,000.00');
    expect(formatMoney(12_34_56_789.1)).toBe('₹12,34,56,789.10');
    expect(formatMoney(-1200)).toBe('-₹1,200.00');
    expect(formatMoney(-0.001)).toBe('₹0.00');
    expect(formatMoney(Number.NaN)).toBe('—');
  });

  it('money rounds for display to the tick size decimals', () => {
    expect(formatMoney(83.12345, { tickSize: 0.0025 })).toBe('₹83.1235');
    expect(formatMoney(100.05, { tickSize: 0.05 })).toBe('₹100.05');
    expect(formatMoney(250, { tickSize: 1 })).toBe('₹250.00');
  });

  it('quantities and percentages', () => {
    expect(formatQty(125000)).toBe('1,25,000');
    expect(formatQty(12)).toBe('12');
    expect(formatQty(0.5)).toBe('0.5');
    expect(formatPercent(5.1, { signed: false })).toBe('5.10%');
  });

  it('IST time regardless of the machine time zone', () => {
    const t = Date.UTC(2024, 4, 14, 3, 45, 2, 123); // 09:15:02.123 IST
    expect(formatIstTime(t, { zone: false })).toBe('09:15:02');
    expect(formatIstDateTime(t, { zone: false })).toBe('14-May-2024 09:15:02');
    expect(formatIstIso(t)).toBe('2024-05-14T09:15:02.123+05:30');
    expect(formatIstIso(Date.UTC(2024, 11, 31, 20, 0, 0))).toBe('2025-01-01T01:30:00.000+05:30');
  });
});
