// Calendar arithmetic on IST calendar dates written as 'YYYY-MM-DD'. Dates are carried as UTC-midnight
// Date values so the host's time zone never leaks in; the strings themselves mean IST dates.
// No exchange holiday calendar is modelled: "business day" means Monday to Friday.

export const MONTHS = [
  'JAN',
  'FEB',
  'MAR',
  'APR',
  'MAY',
  'JUN',
  'JUL',
  'AUG',
  'SEP',
  'OCT',
  'NOV',
  'DEC',
] as const;

const IST_OFFSET_MS = 330 * 60 * 1000;
const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Weekday numbers as returned by Date#getUTCDay. */
export const SUNDAY = 0;
export const TUESDAY = 2;
export const THURSDAY = 4;
export const SATURDAY = 6;

/** Today's date in India for an epoch-ms instant (default now). */
export function istToday(nowMs: number = Date.now()): string {
  return toIso(new Date(nowMs + IST_OFFSET_MS));
}

export function parseIso(iso: string): Date {
  const m = ISO_DATE.exec(iso);
  if (!m) throw new Error(`Invalid date ${iso}: expected YYYY-MM-DD`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (toIso(d) !== iso) throw new Error(`Invalid date ${iso}`);
  return d;
}

export function toIso(d: Date): string {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + 1;
  const day = d.getUTCDate();
  return `${y}-${m < 10 ? '0' : ''}${m}-${day < 10 ? '0' : ''}${day}`;
}

export function dateOf(year: number, month0: number, day: number): string {
  return toIso(new Date(Date.UTC(year, month0, day)));
}

export function addDays(iso: string, days: number): string {
  return toIso(new Date(parseIso(iso).getTime() + days * DAY_MS));
}

export function weekdayOf(iso: string): number {
  return parseIso(iso).getUTCDay();
}

export function isBusinessDay(iso: string): boolean {
  const wd = weekdayOf(iso);
  return wd !== SATURDAY && wd !== SUNDAY;
}

/** The date itself if it is a business day, else the business day before it. */
export function onOrBeforeBusinessDay(iso: string): string {
  let d = iso;
  while (!isBusinessDay(d)) d = addDays(d, -1);
  return d;
}

/** The n-th business day before `iso` (n >= 1). */
export function businessDaysBefore(iso: string, n: number): string {
  let d = iso;
  for (let left = n; left > 0;) {
    d = addDays(d, -1);
    if (isBusinessDay(d)) left--;
  }
  return d;
}

export function lastDayOfMonth(year: number, month0: number): string {
  return toIso(new Date(Date.UTC(year, month0 + 1, 0)));
}

export function lastWeekdayOfMonth(year: number, month0: number, weekday: number): string {
  const last = new Date(Date.UTC(year, month0 + 1, 0));
  const back = (last.getUTCDay() - weekday + 7) % 7;
  return toIso(new Date(last.getTime() - back * DAY_MS));
}

export function lastBusinessDayOfMonth(year: number, month0: number): string {
  return onOrBeforeBusinessDay(lastDayOfMonth(year, month0));
}

/** The first `count` dates falling on `weekday` on or after `from`. */
export function nextWeekdays(from: string, weekday: number, count: number): string[] {
  const out: string[] = [];
  let d = addDays(from, (weekday - weekdayOf(from) + 7) % 7);
  while (out.length < count) {
    out.push(d);
    d = addDays(d, 7);
  }
  return out;
}

interface DateParts {
  dd: string;
  mmm: string;
  yy: string;
}

// Building the master formats the same few dozen expiry dates ~100k times each way.
const partsCache = new Map<string, DateParts>();

function parts(iso: string): DateParts {
  let p = partsCache.get(iso);
  if (!p) {
    const d = parseIso(iso);
    const day = d.getUTCDate();
    p = {
      dd: `${day < 10 ? '0' : ''}${day}`,
      mmm: MONTHS[d.getUTCMonth()] ?? '',
      yy: String(d.getUTCFullYear() % 100).padStart(2, '0'),
    };
    if (partsCache.size > 10_000) partsCache.clear();
    partsCache.set(iso, p);
  }
  return p;
}

/** 'DD-MMM-YY' upper-case, the master contract's expiry format. */
export function formatExpiry(iso: string): string {
  const p = parts(iso);
  return `${p.dd}-${p.mmm}-${p.yy}`;
}

/** 'DDMMMYY', the date part of an OpenAlgo derivative symbol. */
export function symbolDate(iso: string): string {
  const p = parts(iso);
  return `${p.dd}${p.mmm}${p.yy}`;
}

/** 'DD MMM YY', the date part of an Upstox-style broker symbol. */
export function brokerDate(iso: string): string {
  const p = parts(iso);
  return `${p.dd} ${p.mmm} ${p.yy}`;
}

/** Inverse of formatExpiry (two-digit years are 20YY). Returns null when malformed. */
export function parseExpiry(expiry: string): string | null {
  const m = /^(\d{2})-([A-Z]{3})-(\d{2})$/.exec(expiry.toUpperCase());
  if (!m) return null;
  const month0 = MONTHS.indexOf(m[2] as (typeof MONTHS)[number]);
  if (month0 < 0) return null;
  const iso = dateOf(2000 + Number(m[3]), month0, Number(m[1]));
  return formatExpiry(iso) === expiry.toUpperCase() ? iso : null;
}
