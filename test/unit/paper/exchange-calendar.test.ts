// The exchange calendar as data: sessions per exchange, holidays closing some exchanges and not
// others, MCX's US-daylight close, and contract expiries moved to the trading day before a holiday.
import { describe, expect, it } from 'vitest';
import {
  inSession,
  isTradingDay,
  onOrBeforeTradingDay,
  sessionOn,
} from '../../../src-main/paper/instruments/exchange-calendar.js';
import {
  cdsRule,
  mcxOptionExpiry,
  monthlyRule,
} from '../../../src-main/paper/instruments/expiry-schedule.js';
import { HOLIDAYS_BY_YEAR } from '../../../src-main/paper/instruments/data/holidays.js';

describe('exchange calendar', () => {
  it('weekends are closed everywhere; holidays close the exchanges they list', () => {
    expect(isTradingDay('NSE', '2026-11-21')).toBe(false);
    expect(isTradingDay('MCX', '2026-11-22')).toBe(false);
    expect(isTradingDay('NSE', '2026-11-24')).toBe(false);
    expect(isTradingDay('NSE_INDEX', '2026-11-24')).toBe(false);
    expect(sessionOn('MCX', '2026-11-24')).toEqual({ startMin: 17 * 60, endMin: 23 * 60 + 55 });
    expect(isTradingDay('MCX', '2026-12-25')).toBe(false);
    expect(sessionOn('CDS', '2026-11-20')).toEqual({ startMin: 540, endMin: 1020 });
    // The Maharashtra municipal election day, added to the 2026 list by a later NSE circular.
    expect(isTradingDay('NSE', '2026-01-15')).toBe(false);
    expect(HOLIDAYS_BY_YEAR[2026]?.filter((h) => h.closed.includes('NSE'))).toHaveLength(16);
  });

  it('MCX closes at 23:30 from the US daylight start (8-Mar-2026) to its end (1-Nov-2026)', () => {
    expect(sessionOn('MCX', '2026-03-06')?.endMin).toBe(23 * 60 + 55);
    expect(sessionOn('MCX', '2026-03-09')?.endMin).toBe(23 * 60 + 30);
    expect(sessionOn('MCX', '2026-10-30')?.endMin).toBe(23 * 60 + 30);
    expect(sessionOn('MCX', '2026-11-02')?.endMin).toBe(23 * 60 + 55);
  });

  it('in session at an instant: 09:15 open, 15:30 closed', () => {
    expect(inSession('NSE', Date.parse('2026-11-20T09:14:59+05:30'))).toBe(false);
    expect(inSession('NSE', Date.parse('2026-11-20T09:15:00+05:30'))).toBe(true);
    expect(inSession('NSE', Date.parse('2026-11-20T15:30:00+05:30'))).toBe(false);
    expect(inSession('MCX', Date.parse('2026-11-20T23:54:00+05:30'))).toBe(true);
  });

  it('every listed holiday is a weekday, listed once, in date order', () => {
    for (const list of Object.values(HOLIDAYS_BY_YEAR)) {
      const dates = list.map((h) => h.date);
      expect([...new Set(dates)].sort()).toEqual(dates);
      for (const d of dates) expect([0, 6]).not.toContain(new Date(`${d}T00:00:00Z`).getUTCDay());
    }
  });
});

describe('expiries move to the trading day before a holiday', () => {
  it('NFO monthly: last Tuesday of November 2026 (24th, a holiday) → Monday 23rd', () => {
    expect(monthlyRule('NFO')(2026, 10)).toBe('2026-11-23');
    expect(monthlyRule('NFO')(2026, 11)).toBe('2026-12-29');
    // March 2026: the last Tuesday (31st, Mahavir Jayanti) → Monday 30th.
    expect(monthlyRule('NFO')(2026, 2)).toBe('2026-03-30');
    expect(onOrBeforeTradingDay('NFO', '2026-03-31')).toBe('2026-03-30');
  });

  it('CDS: two trading days before the last trading day, skipping holidays on the way', () => {
    // March 2026: 31st is closed, so the last trading day is the 30th; back two trading days,
    // skipping the 26th (Ram Navami): the 27th, then the 25th.
    expect(cdsRule(2026, 2)).toBe('2026-03-25');
  });

  it('MCX options: the trading day before the future', () => {
    // 26-Jan-2026 (Republic Day) closes MCX too: a future on the 27th has options on the 23rd (Friday).
    expect(mcxOptionExpiry('2026-01-27')).toBe('2026-01-23');
  });
});
