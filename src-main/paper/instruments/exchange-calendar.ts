// Which days and hours each exchange trades: weekends always closed, holidays from the published
// list (data/holidays.ts), regular hours per exchange. Used for expiries (moved to the previous
// trading day), history (bars only inside sessions) and /market/holidays, /market/timings.
import { addDays, isBusinessDay, parseIso } from './calendar.js';
import {
  CALENDAR_EXCHANGES,
  HOLIDAYS_BY_YEAR,
  type CalendarExchange,
  type HolidayEntry,
} from './data/holidays.js';

export { CALENDAR_EXCHANGES, type CalendarExchange, type HolidayEntry };

/** A trading session in minutes after IST midnight, [start, end). */
export interface Session {
  startMin: number;
  endMin: number;
}

const IST_OFFSET_MS = 330 * 60_000;

const byDate = new Map<string, HolidayEntry>(
  Object.values(HOLIDAYS_BY_YEAR).flatMap((list) => list.map((h) => [h.date, h] as const)),
);

/** The calendar an exchange (or index segment) follows: NSE_INDEX trades with NSE, BSE_INDEX with BSE. */
export function calendarExchange(exchange: string): CalendarExchange {
  if (exchange === 'NSE_INDEX') return 'NSE';
  if (exchange === 'BSE_INDEX') return 'BSE';
  return (CALENDAR_EXCHANGES as readonly string[]).includes(exchange)
    ? (exchange as CalendarExchange)
    : 'NSE';
}

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}

/** n-th Sunday (1-based) of a month, as day of month. */
function nthSunday(year: number, month0: number, n: number): number {
  const first = new Date(Date.UTC(year, month0, 1)).getUTCDay();
  return 1 + ((7 - first) % 7) + (n - 1) * 7;
}

/**
 * MCX closes at 23:30 while the US is on daylight time (second Sunday of March to first Sunday of
 * November) and at 23:55 otherwise, following the US commodity markets it tracks.
 */
function mcxCloseMin(iso: string): number {
  const d = parseIso(iso);
  const y = d.getUTCFullYear();
  const start = Date.UTC(y, 2, nthSunday(y, 2, 2));
  const end = Date.UTC(y, 10, nthSunday(y, 10, 1));
  const t = d.getTime();
  return t >= start && t < end ? 23 * 60 + 30 : 23 * 60 + 55;
}

/** The exchange's usual hours on a weekday. */
export function regularSession(exchange: CalendarExchange, iso: string): Session {
  switch (exchange) {
    case 'MCX':
      return { startMin: 9 * 60, endMin: mcxCloseMin(iso) };
    case 'CDS':
    case 'BCD':
      return { startMin: 9 * 60, endMin: 17 * 60 };
    default:
      return { startMin: 9 * 60 + 15, endMin: 15 * 60 + 30 };
  }
}

export function holidayOn(iso: string): HolidayEntry | undefined {
  return byDate.get(iso);
}

/** The holiday list of a year, or undefined when the calendar has none for it. */
export function holidaysOf(year: number): readonly HolidayEntry[] | undefined {
  return HOLIDAYS_BY_YEAR[year];
}

/** The day's session on an exchange, or null when it does not trade (weekend or holiday). */
export function sessionOn(exchange: string, iso: string): Session | null {
  if (!isBusinessDay(iso)) return null;
  const ex = calendarExchange(exchange);
  const regular = regularSession(ex, iso);
  const h = holidayOn(iso);
  // A session listed for the day replaces the usual hours (MCX's evening on an equity holiday).
  const special = h?.open.find((o) => o.exchange === ex);
  if (special) {
    return {
      startMin: minutesOf(special.start),
      endMin: special.end ? minutesOf(special.end) : regular.endMin,
    };
  }
  return h?.closed.includes(ex) ? null : regular;
}

export function isTradingDay(exchange: string, iso: string): boolean {
  return sessionOn(exchange, iso) !== null;
}

/** Whether the exchange is in session at an instant (epoch ms). */
export function inSession(exchange: string, nowMs: number): boolean {
  const istMs = nowMs + IST_OFFSET_MS;
  const date = new Date(istMs).toISOString().slice(0, 10);
  const s = sessionOn(exchange, date);
  const min = Math.floor((istMs % 86_400_000) / 60_000);
  return s !== null && min >= s.startMin && min < s.endMin;
}

/** The date itself when the exchange trades that day, else the trading day before it. */
export function onOrBeforeTradingDay(exchange: string, iso: string): string {
  let d = iso;
  // Bounded: no exchange is closed for a month.
  for (let i = 0; i < 31 && !isTradingDay(exchange, d); i++) d = addDays(d, -1);
  return d;
}

/** Epoch ms of an IST date at `min` minutes after midnight. */
export function istEpochMs(iso: string, min: number): number {
  return parseIso(iso).getTime() + min * 60_000 - IST_OFFSET_MS;
}

export interface ExchangeTiming {
  exchange: CalendarExchange;
  start_time: number;
  end_time: number;
}

/** Every exchange's session on a date, in upstream's order; exchanges closed that day are left out. */
export function timingsOn(iso: string): ExchangeTiming[] {
  const out: ExchangeTiming[] = [];
  for (const ex of ['NSE', 'BSE', 'NFO', 'BFO', 'CDS', 'BCD', 'MCX'] as const) {
    const s = sessionOn(ex, iso);
    if (s)
      out.push({
        exchange: ex,
        start_time: istEpochMs(iso, s.startMin),
        end_time: istEpochMs(iso, s.endMin),
      });
  }
  return out;
}
