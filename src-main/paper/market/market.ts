// The market simulator's public surface: deterministic prices, books and bars over an injectable clock.
import type { Clock } from '../../contract/clock.js';
import type { Instrument } from '../instruments/instrument.js';
import type { BarCalendar } from './sessions.js';

/** The program's one Clock (contract/clock.ts): the simulator reads `now`, the paper server its timers. */
export type { Clock };

/** The bar intervals the simulator serves are exactly the contract's ticker intervals. */
export { TICKER_INTERVALS as BAR_INTERVALS } from '../../contract/index.js';
import type { TickerInterval as BarInterval } from '../../contract/index.js';
export type { BarInterval };

export interface Bar {
  /** Bar start, epoch seconds. D/W/M bars start at IST midnight (of the day, Monday, 1st). */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface Quote {
  ltp: number;
  ltq: number;
  open: number;
  high: number;
  low: number;
  prev_close: number;
  volume: number;
  oi: number;
  bid: number;
  ask: number;
}

export interface BookLevel {
  price: number;
  quantity: number;
}

export interface Book extends Quote {
  /** Five levels each, best first, on tick-size steps. */
  bids: BookLevel[];
  asks: BookLevel[];
  totalbuyqty: number;
  totalsellqty: number;
}

export interface Market {
  readonly clock: Clock;
  lastPrice(inst: Instrument): number;
  quote(inst: Instrument): Quote;
  book(inst: Instrument): Book;
  /** Bars whose start lies in [fromSec, toSec], ascending; the bar in progress closes at the last price. */
  bars(
    inst: Instrument,
    interval: BarInterval,
    fromSec: number,
    toSec: number,
    /** calendar: bars only inside trading sessions (sessions.ts); without it, around the clock. */
    opts?: { adjusted?: boolean; calendar?: BarCalendar },
  ): Bar[];
  /** Test-only: move an underlying (or the instrument's own series) so the instrument trades at `price` from now on. */
  setPrice(inst: Instrument, price: number): void;
}
