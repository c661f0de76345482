// When a guard's lock ends: the next weekday's 09:15 IST (over a weekend, from before and after the
// open, across midnight), or the cooling-off minutes; and the IST day change.
import { describe, expect, it } from 'vitest';
import {
  istDay,
  lockEnd,
  nextIstMidnight,
  nextSessionOpen,
} from '../../../../src-main/core/guard/guard-day.js';
import { formatIstIso } from '../../../../src-main/shared/format.js';

const ist = (s: string) => Date.parse(`${s}+05:30`);
const iso = (ms: number) => formatIstIso(ms);

describe('lock ends', () => {
  it('a day-long lock ends at 09:15 IST of the next weekday', () => {
    expect(iso(nextSessionOpen(ist('2026-11-18T10:00:00')))).toBe('2026-11-19T09:15:00.000+05:30');
    // Friday, Saturday and Sunday locks end on Monday.
    expect(iso(nextSessionOpen(ist('2026-11-20T15:29:00')))).toBe('2026-11-23T09:15:00.000+05:30');
    expect(iso(nextSessionOpen(ist('2026-11-21T11:00:00')))).toBe('2026-11-23T09:15:00.000+05:30');
    expect(iso(nextSessionOpen(ist('2026-11-22T23:59:59')))).toBe('2026-11-23T09:15:00.000+05:30');
    // Before the open on a weekday: the next weekday's open, not today's.
    expect(iso(nextSessionOpen(ist('2026-11-23T08:00:00')))).toBe('2026-11-24T09:15:00.000+05:30');
    // 00:10 IST is still the previous UTC day: the IST day counts.
    expect(iso(nextSessionOpen(ist('2026-11-24T00:10:00')))).toBe('2026-11-25T09:15:00.000+05:30');
  });
  it('a cooling-off lock ends its minutes later, across midnight too', () => {
    expect(lockEnd(ist('2026-11-20T23:30:00'), 60)).toBe(ist('2026-11-21T00:30:00'));
    expect(lockEnd(ist('2026-11-20T10:00:00'), 0)).toBe(ist('2026-11-23T09:15:00'));
  });
});

describe('the IST day', () => {
  it('changes at IST midnight, not UTC midnight', () => {
    expect(istDay(ist('2026-11-20T23:59:59'))).toBe('2026-11-20');
    expect(istDay(ist('2026-11-21T00:00:00'))).toBe('2026-11-21');
    expect(nextIstMidnight(ist('2026-11-20T05:00:00'))).toBe(ist('2026-11-21T00:00:00'));
  });
});
