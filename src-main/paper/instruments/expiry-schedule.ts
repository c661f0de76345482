// When contracts expire, relative to a given IST `today`. Since SEBI's 2025 rationalisation NSE
// derivatives expire on Tuesdays and BSE ones on Thursdays; monthlies are the month's last such day.
// An expiry falling on a weekend or an exchange holiday moves to the trading day before it, as the
// exchanges move them (exchange-calendar.ts).
import {
  addDays,
  dateOf,
  lastDayOfMonth,
  lastWeekdayOfMonth,
  nextWeekdays,
  parseIso,
  THURSDAY,
  TUESDAY,
} from './calendar.js';
import { onOrBeforeTradingDay } from './exchange-calendar.js';
import type { McxExpiryRule } from './data/commodities.js';

type MonthRule = (year: number, month0: number) => string;

/** How far ahead (in months) a schedule may look for its contracts. */
const HORIZON_MONTHS = 72;

/** The first `count` monthly expiries on or after `today`, optionally only in some months. */
export function monthlyExpiries(
  today: string,
  rule: MonthRule,
  count: number,
  months?: readonly number[],
): string[] {
  const t = parseIso(today);
  const out: string[] = [];
  for (let i = 0; out.length < count && i < HORIZON_MONTHS; i++) {
    const year = t.getUTCFullYear() + Math.floor((t.getUTCMonth() + i) / 12);
    const month0 = (t.getUTCMonth() + i) % 12;
    if (months && !months.includes(month0)) continue;
    const d = rule(year, month0);
    if (d >= today) out.push(d);
  }
  return out;
}

export function exchangeWeekday(exchange: 'NFO' | 'BFO'): number {
  return exchange === 'NFO' ? TUESDAY : THURSDAY;
}

export function monthlyRule(exchange: 'NFO' | 'BFO'): MonthRule {
  const wd = exchangeWeekday(exchange);
  return (y, m) => onOrBeforeTradingDay(exchange, lastWeekdayOfMonth(y, m, wd));
}

const QUARTER_MONTHS = [2, 5, 8, 11];
const HALF_YEAR_MONTHS = [5, 11];

export interface IndexOptionExpiries {
  /** Weeklies and the three monthlies: full-width strike ladders. */
  near: string[];
  /** Quarterly and half-yearly long-dated contracts: thinner ladders. */
  far: string[];
}

/** Weekly + 3 monthly + quarterly + half-yearly index option expiries, each ascending and disjoint. */
export function indexOptionExpiries(
  exchange: 'NFO' | 'BFO',
  today: string,
  weeklies: number,
  quarterlies: number,
  halfYearlies: number,
): IndexOptionExpiries {
  const rule = monthlyRule(exchange);
  const monthlies = monthlyExpiries(today, rule, 3);
  // A weekly moved off a holiday may land before today (today is then past it).
  const weekly = nextWeekdays(today, exchangeWeekday(exchange), weeklies)
    .map((d) => onOrBeforeTradingDay(exchange, d))
    .filter((d) => d >= today);
  const near = [...new Set([...weekly, ...monthlies])].sort();
  const lastNear = near[near.length - 1] ?? today;
  const quarterly = monthlyExpiries(today, rule, quarterlies + 12, QUARTER_MONTHS)
    .filter((d) => d > lastNear)
    .slice(0, quarterlies);
  const lastQuarterly = quarterly[quarterly.length - 1] ?? lastNear;
  const halfYearly = monthlyExpiries(today, rule, halfYearlies + 24, HALF_YEAR_MONTHS)
    .filter((d) => d > lastQuarterly)
    .slice(0, halfYearlies);
  return { near, far: [...quarterly, ...halfYearly] };
}

export function mcxRule(rule: McxExpiryRule): MonthRule {
  switch (rule) {
    case 'day19':
      return (y, m) => onOrBeforeTradingDay('MCX', dateOf(y, m, 19));
    case 'day26':
      return (y, m) => onOrBeforeTradingDay('MCX', dateOf(y, m, 26));
    case 'day5':
      return (y, m) => onOrBeforeTradingDay('MCX', dateOf(y, m, 5));
    case 'monthEnd':
      return (y, m) => onOrBeforeTradingDay('MCX', lastDayOfMonth(y, m));
  }
}

/** The n-th trading day of `exchange` before `iso` (n >= 1). */
function tradingDaysBefore(exchange: string, iso: string, n: number): string {
  let d = iso;
  for (let i = 0; i < n; i++) d = onOrBeforeTradingDay(exchange, addDays(d, -1));
  return d;
}

/** Options on an MCX future expire the trading day before the future. */
export function mcxOptionExpiry(futureExpiry: string): string {
  return tradingDaysBefore('MCX', futureExpiry, 1);
}

/** NSE currency contracts: two trading days before the month's last trading day. */
export const cdsRule: MonthRule = (y, m) =>
  tradingDaysBefore('CDS', onOrBeforeTradingDay('CDS', lastDayOfMonth(y, m)), 2);
