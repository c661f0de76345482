// Exchange holidays as data, one list per calendar year. Weekends are always closed and are not
// listed. A year without a list has weekends as its only closed days (said so by /market/holidays).
//
// Source for 2026: NSE, "Trading holidays for the calendar year 2026" (the equity / equity
// derivatives / currency derivatives list published on nseindia.com, Exchange communication →
// Holidays); BSE publishes the same dates. MCX (commodity) follows the NSE list for its morning
// session and keeps its evening session (17:00 onwards) open on most of those days; it closes all
// day on Republic Day, Good Friday, Gandhi Jayanti and Christmas, as in MCX's own 2026 circular.
// 15-Jan was added in January 2026 by a later NSE circular (Maharashtra municipal corporation
// elections); MCX is taken to keep its evening session that day as on the other state holidays.
// Weekend holidays (Mahashivratri 15-Feb, Independence Day 15-Aug, Diwali Laxmi Pujan 08-Nov, a
// Sunday with only the Muhurat session) are left out: a weekend is closed anyway.

/** Exchanges a holiday can close, as upstream lists them. */
export const CALENDAR_EXCHANGES = ['NSE', 'BSE', 'NFO', 'BFO', 'CDS', 'BCD', 'MCX'] as const;
export type CalendarExchange = (typeof CALENDAR_EXCHANGES)[number];

export type HolidayType = 'TRADING_HOLIDAY' | 'SETTLEMENT_HOLIDAY' | 'SPECIAL_SESSION';

export interface HolidayEntry {
  /** IST calendar date, YYYY-MM-DD. */
  date: string;
  description: string;
  type: HolidayType;
  closed: readonly CalendarExchange[];
  /** Exchanges that keep a session of their own that day ('HH:MM' IST; no end: the usual close). */
  open: readonly { exchange: CalendarExchange; start: string; end?: string }[];
}

const EQUITY_AND_CURRENCY: readonly CalendarExchange[] = ['NSE', 'BSE', 'NFO', 'BFO', 'CDS', 'BCD'];
const ALL: readonly CalendarExchange[] = [...EQUITY_AND_CURRENCY, 'MCX'];
const MCX_EVENING = [{ exchange: 'MCX' as const, start: '17:00' }];

/** Closed for equity and currency; MCX trades its evening session. */
function eveningMcx(date: string, description: string): HolidayEntry {
  return { date, description, type: 'TRADING_HOLIDAY', closed: EQUITY_AND_CURRENCY, open: MCX_EVENING };
}

/** Every exchange closed all day. */
function allClosed(date: string, description: string): HolidayEntry {
  return { date, description, type: 'TRADING_HOLIDAY', closed: ALL, open: [] };
}

export const HOLIDAYS_BY_YEAR: Readonly<Record<number, readonly HolidayEntry[]>> = {
  2026: [
    eveningMcx('2026-01-15', 'Municipal Corporation Election - Maharashtra'),
    allClosed('2026-01-26', 'Republic Day'),
    eveningMcx('2026-03-03', 'Holi'),
    eveningMcx('2026-03-26', 'Shri Ram Navami'),
    eveningMcx('2026-03-31', 'Shri Mahavir Jayanti'),
    allClosed('2026-04-03', 'Good Friday'),
    eveningMcx('2026-04-14', 'Dr. Baba Saheb Ambedkar Jayanti'),
    eveningMcx('2026-05-01', 'Maharashtra Day'),
    eveningMcx('2026-05-28', 'Bakri Id'),
    eveningMcx('2026-06-26', 'Muharram'),
    eveningMcx('2026-09-14', 'Ganesh Chaturthi'),
    allClosed('2026-10-02', 'Mahatma Gandhi Jayanti'),
    eveningMcx('2026-10-20', 'Dussehra'),
    eveningMcx('2026-11-10', 'Diwali-Balipratipada'),
    eveningMcx('2026-11-24', 'Prakash Gurpurb Sri Guru Nanak Dev'),
    allClosed('2026-12-25', 'Christmas'),
  ],
};
