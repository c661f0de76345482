// Which stretches of each IST day carry bars: past days only their exchange session (no weekend or
// holiday candles), and today either the whole day (the paper market's default, so the desk works
// at any hour) or the session too (`--hours exchange`).
import { sessionOn } from '../instruments/exchange-calendar.js';
import { istDay, istDayToDate } from './time.js';

/** Seconds after IST midnight, [start, end); null: no trading that day. */
export type DaySession = { startSec: number; endSec: number } | null;

export interface BarCalendar {
  session(day: number): DaySession;
}

/** 'clock': today trades around the clock; 'exchange': today follows the exchange's hours too. */
export type MarketHours = 'clock' | 'exchange';
export const MARKET_HOURS: readonly MarketHours[] = ['clock', 'exchange'];

export function isMarketHours(v: string): v is MarketHours {
  return (MARKET_HOURS as readonly string[]).includes(v);
}

const WHOLE_DAY: DaySession = { startSec: 0, endSec: 86_400 };

export function barCalendar(exchange: string, hours: MarketHours, nowSec: number): BarCalendar {
  const today = istDay(nowSec);
  const memo = new Map<number, DaySession>();
  return {
    session(day) {
      if (day === today && hours === 'clock') return WHOLE_DAY;
      let s = memo.get(day);
      if (s === undefined) {
        const found = sessionOn(exchange, istDayToDate(day));
        s = found ? { startSec: found.startMin * 60, endSec: found.endMin * 60 } : null;
        memo.set(day, s);
      }
      return s;
    },
  };
}
