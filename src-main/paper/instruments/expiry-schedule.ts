// When contracts expire, relative to a given IST `today`. Since SEBI's 2025 rationalisation NSE
// derivatives expire on Tuesdays and BSE ones on Thursdays; monthlies are the month's last such day.
// No holiday calendar is modelled, so an expiry never moves for a holiday (weekends are handled).
import {
  businessDaysBefore,
  dateOf,
  lastBusinessDayOfMonth,
  lastWeekdayOfMonth,
  nextWeekdays,
  onOrBeforeBusinessDay,
  parseIso,
  THURSDAY,
  TUESDAY,
} from './calendar.js';
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
  return (y, m) => lastWeekdayOfMonth(y, m, wd);
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
  const near = [
    ...new Set([...nextWeekdays(today, exchangeWeekday(exchange), weeklies), ...monthlies]),
  ].sort();
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
      return (y, m) => onOrBeforeBusinessDay(dateOf(y, m, 19));
    case 'day26':
      return (y, m) => onOrBeforeBusinessDay(dateOf(y, m, 26));
    case 'day5':
      return (y, m) => onOrBeforeBusinessDay(dateOf(y, m, 5));
    case 'monthEnd':
      return (y, m) => lastBusinessDayOfMonth(y, m);
  }
}

/** Options on an MCX future expire the business day before the future. */
export function mcxOptionExpiry(futureExpiry: string): string {
  return businessDaysBefore(futureExpiry, 1);
}

/** NSE currency contracts: two business days before the month's last business day. */
export const cdsRule: MonthRule = (y, m) => businessDaysBefore(lastBusinessDayOfMonth(y, m), 2);
