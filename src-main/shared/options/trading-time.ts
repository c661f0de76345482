// Time to expiry as the options arithmetic counts it: trading days left / 252, each weekday's
// session 09:15–15:30 IST (6 h 15 min) counting as one day. There is no holiday calendar: an
// exchange holiday on a weekday counts as a full day, which slightly overstates the time left.
// IST is UTC+05:30 all year (no daylight saving).

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const IST_OFFSET_MS = 330 * MINUTE_MS;
const SESSION_OPEN_MS = (9 * 60 + 15) * MINUTE_MS;
const SESSION_CLOSE_MS = (15 * 60 + 30) * MINUTE_MS;
const SESSION_MS = SESSION_CLOSE_MS - SESSION_OPEN_MS;
/** Trading days in a year. */
export const TRADING_DAYS_PER_YEAR = 252;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** `24NOV26` (DDMMMYY, month in any case) → 15:30 IST of 24 Nov 2026 (10:00 UTC) as epoch ms. */
export function expiryMs(code: string): number {
  const m = /^(\d{2})([A-Za-z]{3})(\d{2})$/.exec(code.trim());
  if (!m) throw new Error(`Expiry "${code}" is not a DDMMMYY code such as 24NOV26`);
  const day = Number(m[1]);
  const monthName = (m[2] as string).toUpperCase();
  const month = MONTHS.indexOf(monthName);
  if (month < 0) throw new Error(`Expiry "${code}" has no month "${monthName}": JAN to DEC`);
  const year = 2000 + Number(m[3]);
  const ms = Date.UTC(year, month, day, 10, 0);
  if (day < 1 || new Date(ms).getUTCDate() !== day)
    throw new Error(`Expiry "${code}": ${monthName} ${year} has no day ${day}`);
  return ms;
}

/** Monday to Friday of the IST day `day` (days since 1970-01-01 IST, a Thursday). */
function isWeekday(day: number): boolean {
  const dow = (((day + 4) % 7) + 7) % 7; // 0 Sunday … 6 Saturday
  return dow !== 0 && dow !== 6;
}

/** Weekdays among IST days first..last (inclusive). */
function weekdaysBetween(first: number, last: number): number {
  if (last < first) return 0;
  const weeks = Math.floor((last - first + 1) / 7);
  let count = weeks * 5;
  for (let d = first + weeks * 7; d <= last; d++) if (isWeekday(d)) count++;
  return count;
}

/** The part (0–1) of IST day `day`'s session inside [from, to], both as IST-shifted ms. */
function sessionPart(day: number, from: number, to: number): number {
  if (!isWeekday(day)) return 0;
  const open = day * DAY_MS + SESSION_OPEN_MS;
  const close = day * DAY_MS + SESSION_CLOSE_MS;
  return Math.max(0, Math.min(close, to) - Math.max(open, from)) / SESSION_MS;
}

/**
 * Trading time from `nowMs` to `expiryMs` in years: the weekday sessions (09:15–15:30 IST) between
 * them, today's remaining part as a fraction (all of it before 09:15, none after 15:30), weekends
 * none, divided by 252. 0 at or after expiry.
 */
export function tradingYears(nowMs: number, expiryMs: number): number {
  if (!(expiryMs > nowMs)) return 0;
  const from = nowMs + IST_OFFSET_MS;
  const to = expiryMs + IST_OFFSET_MS;
  const firstDay = Math.floor(from / DAY_MS);
  const lastDay = Math.floor(to / DAY_MS);
  const days =
    firstDay === lastDay
      ? sessionPart(firstDay, from, to)
      : sessionPart(firstDay, from, Infinity) +
        weekdaysBetween(firstDay + 1, lastDay - 1) +
        sessionPart(lastDay, -Infinity, to);
  return days / TRADING_DAYS_PER_YEAR;
}
