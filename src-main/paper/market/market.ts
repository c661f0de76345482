// The market simulator's public surface: deterministic prices, books and bars over an injectable clock.
import type { Instrument } from '../instruments/instrument.js';

/** Injectable time source; epoch milliseconds. */
export interface Clock {
  now(): number;
}

export const BAR_INTERVALS = [
  '1s',
  '5s',
  '10s',
  '15s',
  '30s',
  '45s',
  '1m',
  '2m',
  '3m',
  '5m',
  '10m',
  '15m',
  '20m',
  '30m',
  '1h',
  '2h',
  '3h',
  '4h',
  'D',
  'W',
  'M',
] as const;
export type BarInterval = (typeof BAR_INTERVALS)[number];

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
    opts?: { adjusted?: boolean },
  ): Bar[];
  /** Test-only: move an underlying (or the instrument's own series) so the instrument trades at `price` from now on. */
  setPrice(inst: Instrument, price: number): void;
}
