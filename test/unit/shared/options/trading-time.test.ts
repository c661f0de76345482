import { describe, expect, it } from 'vitest';
import { expiryMs, tradingYears } from '../../../../src-main/shared/options/trading-time.js';

// IST is UTC+05:30: 09:15 IST = 03:45 UTC, 15:30 IST = 10:00 UTC. 24 Nov 2026 is a Tuesday.
const ist = (y: number, mo: number, d: number, h: number, mi: number) =>
  Date.UTC(y, mo - 1, d, h, mi) - 330 * 60_000;
const EXPIRY = ist(2026, 11, 24, 15, 30);

describe('expiryMs', () => {
  it('is 15:30 IST (10:00 UTC) of the DDMMMYY day, in any case', () => {
    expect(expiryMs('24NOV26')).toBe(Date.UTC(2026, 10, 24, 10, 0));
    expect(expiryMs('24nov26')).toBe(Date.UTC(2026, 10, 24, 10, 0));
    expect(expiryMs('01Jan27')).toBe(Date.UTC(2027, 0, 1, 10, 0));
    expect(expiryMs('29FEB28')).toBe(Date.UTC(2028, 1, 29, 10, 0));
  });

  it('refuses a bad code with a message that says what is wrong', () => {
    expect(() => expiryMs('2026-11-24')).toThrow('is not a DDMMMYY code such as 24NOV26');
    expect(() => expiryMs('24XYZ26')).toThrow('has no month "XYZ"');
    expect(() => expiryMs('31FEB26')).toThrow('FEB 2026 has no day 31');
    expect(() => expiryMs('00NOV26')).toThrow('has no day 0');
    expect(() => expiryMs('29FEB27')).toThrow('FEB 2027 has no day 29');
  });
});

describe('tradingYears', () => {
  it('Friday 15:00 IST to Tuesday 15:30: 0.5 h / 6.25 h of Friday + Monday + Tuesday', () => {
    // 30 min / 375 min = 0.08; 0.08 + 1 + 1 = 2.08 trading days; / 252 = 0.008253968…
    expect(tradingYears(ist(2026, 11, 20, 15, 0), EXPIRY)).toBeCloseTo(2.08 / 252, 14);
  });

  it('a weekend start counts nothing for Saturday and Sunday', () => {
    // Saturday noon → Monday + Tuesday = 2 days.
    expect(tradingYears(ist(2026, 11, 21, 12, 0), EXPIRY)).toBeCloseTo(2 / 252, 14);
    expect(tradingYears(ist(2026, 11, 22, 23, 59), EXPIRY)).toBeCloseTo(2 / 252, 14);
  });

  it('before 09:15 the whole day counts; after 15:30 none of it', () => {
    expect(tradingYears(ist(2026, 11, 23, 8, 0), EXPIRY)).toBeCloseTo(2 / 252, 14);
    expect(tradingYears(ist(2026, 11, 23, 16, 0), EXPIRY)).toBeCloseTo(1 / 252, 14);
  });

  it('on expiry day, the session left', () => {
    // 12:52:30 → 15:30 is 157.5 min; 157.5 / 375 = 0.42 day.
    expect(tradingYears(ist(2026, 11, 24, 12, 52) + 30_000, EXPIRY)).toBeCloseTo(0.42 / 252, 14);
  });

  it('0 at or after expiry', () => {
    expect(tradingYears(EXPIRY, EXPIRY)).toBe(0);
    expect(tradingYears(EXPIRY + 1, EXPIRY)).toBe(0);
    expect(tradingYears(ist(2026, 12, 1, 10, 0), EXPIRY)).toBe(0);
  });

  it('counts whole weeks: Tuesday 15:30 to the Tuesday 52 weeks on is 260 days', () => {
    // 52 weeks × 5 weekdays = 260; the start day's session is over.
    expect(tradingYears(EXPIRY, ist(2027, 11, 23, 15, 30))).toBeCloseTo(260 / 252, 12);
    // Wednesday 25 Nov 2026 09:00 to Tuesday 29 Dec 2026 15:30: 25 weekdays (3 + 5 × 4 + 2).
    expect(tradingYears(ist(2026, 11, 25, 9, 0), ist(2026, 12, 29, 15, 30))).toBeCloseTo(25 / 252, 12);
  });
});
