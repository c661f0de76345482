// createMarket: the deterministic simulated market behind the paper gateway. Prices are pure
// functions of (seed, underlying, time); the only state is caches and setPrice overlays.
//
// How it fits together (details in each module):
// - price-path.ts: per underlying, integer-tick minute closes from seeded multi-octave noise; a
//   minute's seconds run open -> high/low -> close inside [low, high]. So 1s bars fold exactly
//   into 1m bars, and 1m bars into every coarser interval (IST-aligned; D/W/M = IST day, Monday
//   week, calendar month). Volume is hashed per minute and split exactly across its seconds.
//   Each path is anchored at the master's base price at IST midnight of the day the market was
//   created, so the instrument master's strike ladders (centred on the base price) hold the
//   at-the-money strike; history before that day wanders freely.
// - transform.ts: an instrument's price is a monotone map of its underlying's for one IST day
//   (cash: identity; futures: carry; options: Black-Scholes floored at intrinsic and one tick),
//   so derivative bar extremes come from the underlying's (swapped for puts).
// - setPrice: a piecewise tick offset from the current second on. Cash and futures shift their
//   underlying (all its derivatives follow); options shift only their own series. A bar whose
//   span holds a change is folded from seconds, so bars stay consistent across the jump.
//   setPricePath scripts several such changes ahead (a session that reaches both sides of a bracket).
// - corporate-actions.ts: ~5% of equities split 2:1 or 5:1 (seeded, 2016-2025). The path is the
//   adjusted series; adjusted=false multiplies earlier prices by the ratio, adjusted=true
//   multiplies earlier volume by it (both exact on ticks and integers).
// - Completed IST days are cached per underlying and instrument; the day in progress is folded
//   incrementally, so quotes and ten years of D/W/M bars are cheap once warm.
import type { Instrument, Underlying } from '../instruments/instrument.js';
import { buildBars } from './bars.js';
import type { BarCalendar } from './sessions.js';
import { buildBook, type TickBook } from './book.js';
import { splitFor, type CorporateAction } from './corporate-actions.js';
import { InstrumentSeries } from './instrument-series.js';
import type { Bar, BarInterval, Book, Clock, Market, Quote } from './market.js';
import { istDay, istDayStart } from './time.js';
import { UnderlyingSeries } from './underlying-series.js';

export interface MarketOptions {
  underlyings: ReadonlyMap<string, Underlying>;
  clock: Clock;
  seed: number;
  /** Share of equity underlyings given a stock split within the last ten years (default 0.05). */
  splitFraction?: number;
}

export interface SimulatedMarket extends Market {
  /** Splits affecting the instrument's bars (equities only; empty for everything else). */
  corporateActions(inst: Instrument): readonly CorporateAction[];
  /** Price at any epoch second (past or future), as `lastPrice` would report it then. */
  priceAt(inst: Instrument, epochSec: number): number;
  /** Open interest now (0 for cash instruments). */
  openInterest(inst: Instrument): number;
  /** Test-only: a scripted path of prices for `inst` (see Simulator.setPricePath). */
  setPricePath(inst: Instrument, points: readonly PricePoint[]): void;
}

/** From `atMs` (epoch ms; its second) on, the instrument trades at `price`. */
export interface PricePoint {
  atMs: number;
  price: number;
}

export function createMarket(opts: MarketOptions): SimulatedMarket {
  return new Simulator(opts);
}

class Simulator implements SimulatedMarket {
  readonly clock: Clock;
  private readonly seed: number;
  private readonly splitFraction: number;
  private readonly underlyings: ReadonlyMap<string, Underlying>;
  private readonly uSeries = new Map<string, UnderlyingSeries>();
  private readonly iSeries = new Map<string, InstrumentSeries>();
  /**
   * Last quote/book per instrument, good for its second: the order engine asks for a book on every
   * fill. setPrice bumps `version` so a moved price is never served from the cache.
   */
  private readonly books = new Map<string, { sec: number; version: number; quote: Quote; book: Book }>();
  private version = 0;

  /** Midnight IST of the day the market was created, in epoch minutes: every path's base price. */
  private readonly anchorMinute: number;

  constructor(opts: MarketOptions) {
    this.clock = opts.clock;
    this.seed = opts.seed | 0;
    this.anchorMinute = istDayStart(istDay(Math.floor(opts.clock.now() / 1000))) / 60;
    this.splitFraction = opts.splitFraction ?? 0.05;
    this.underlyings = opts.underlyings;
  }

  private nowSec(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  private underlying(key: string): UnderlyingSeries {
    let s = this.uSeries.get(key);
    if (!s) {
      const u = this.underlyings.get(key);
      if (!u) throw new Error(`Unknown underlying '${key}'`);
      s = new UnderlyingSeries(u, this.seed, this.anchorMinute);
      this.uSeries.set(key, s);
    }
    return s;
  }

  private series(inst: Instrument): InstrumentSeries {
    const key = `${inst.exchange}:${inst.symbol}`;
    let s = this.iSeries.get(key);
    if (!s) {
      const split = splitFor(this.seed, inst.underlyingKey, this.splitFraction);
      s = new InstrumentSeries(inst, this.underlying(inst.underlyingKey), this.seed, split);
      this.iSeries.set(key, s);
    }
    return s;
  }

  lastPrice(inst: Instrument): number {
    return this.priceAt(inst, this.nowSec());
  }

  priceAt(inst: Instrument, epochSec: number): number {
    const s = this.series(inst);
    return s.tick.toPrice(s.secondClose(Math.floor(epochSec)));
  }

  openInterest(inst: Instrument): number {
    return this.series(inst).openInterest(this.nowSec());
  }

  corporateActions(inst: Instrument): readonly CorporateAction[] {
    const split = this.series(inst).split;
    return split ? [split] : [];
  }

  private quoteAndBook(inst: Instrument, now: number): { quote: Quote; book: TickBook; s: InstrumentSeries } {
    const s = this.series(inst);
    const ltp = s.secondClose(now);
    const d = istDay(now);
    const day = s.day(d, now);
    const prevClose = s.secondClose(istDayStart(d) - 1);
    const book = buildBook({
      ltp,
      sec: now,
      keyHash: s.keyHash,
      tick: inst.tickSize,
      lot: s.isDerivative ? Math.max(1, inst.lotsize) : 0,
    });
    const t = s.tick;
    const quote: Quote = {
      ltp: t.toPrice(ltp),
      ltq: s.lastQuantity(now),
      open: t.toPrice(day.o),
      high: t.toPrice(day.h),
      low: t.toPrice(day.l),
      prev_close: t.toPrice(prevClose),
      volume: day.v,
      oi: s.openInterest(now),
      bid: t.toPrice(book.bids[0]?.ticks ?? 0),
      ask: t.toPrice(book.asks[0]?.ticks ?? 0),
    };
    return { quote, book, s };
  }

  quote(inst: Instrument): Quote {
    return this.cached(inst).quote;
  }

  /** The book of the current second (shared between callers of that second: do not mutate). */
  book(inst: Instrument): Book {
    return this.cached(inst).book;
  }

  private cached(inst: Instrument): { quote: Quote; book: Book } {
    const key = `${inst.exchange}:${inst.symbol}`;
    const sec = this.nowSec();
    const hit = this.books.get(key);
    if (hit && hit.sec === sec && hit.version === this.version) return hit;
    const { quote, book, s } = this.quoteAndBook(inst, sec);
    const t = s.tick;
    const entry = {
      sec,
      version: this.version,
      quote,
      book: {
        ...quote,
        bids: book.bids.map((l) => ({ price: t.toPrice(l.ticks), quantity: l.quantity })),
        asks: book.asks.map((l) => ({ price: t.toPrice(l.ticks), quantity: l.quantity })),
        totalbuyqty: book.totalBuy,
        totalsellqty: book.totalSell,
      },
    };
    this.books.set(key, entry);
    return entry;
  }

  bars(
    inst: Instrument,
    interval: BarInterval,
    fromSec: number,
    toSec: number,
    opts?: { adjusted?: boolean; calendar?: BarCalendar },
  ): Bar[] {
    return buildBars(
      this.series(inst),
      interval,
      fromSec,
      toSec,
      this.nowSec(),
      opts?.adjusted ?? true,
      opts?.calendar,
    );
  }

  /**
   * From the current second on, `inst` trades at `price`. Cash and futures move their underlying
   * (so every derivative of it follows), with any rounding residue left as the instrument's own
   * offset; options get an offset on their own series only.
   */
  setPrice(inst: Instrument, price: number): void {
    this.setPricePath(inst, [{ atMs: this.clock.now(), price }]);
  }

  /**
   * A scripted path, as if setPrice were called at each point's second: `inst` trades at the
   * point's price then, and wanders from that level until the next point. Points in time order,
   * the first at or after the current second; it replaces whatever was set from its first point on.
   */
  setPricePath(inst: Instrument, points: readonly PricePoint[]): void {
    const now = this.nowSec();
    let last = now;
    for (const p of points) {
      const sec = Math.floor(p.atMs / 1000);
      if (sec < last) throw new RangeError(`A path's points run forward from now, got ${p.atMs}`);
      last = sec;
    }
    const s = this.series(inst);
    const targets = points.map((p) => {
      const target = s.tick.toTicks(p.price);
      if (!(target >= 1)) throw new RangeError(`Price must be at least one tick, got ${p.price}`);
      return target;
    });
    if (points.length === 0) return;
    this.version += 1;
    const u = s.u;
    const first = istDay(Math.floor(points[0]!.atMs / 1000));
    points.forEach((p, n) => {
      const sec = Math.floor(p.atMs / 1000);
      const target = targets[n]!;
      const t0 = s.transform(istDay(sec), 0);
      if (inst.kind !== 'CE' && inst.kind !== 'PE') {
        const uTarget = t0.invertLinear(target);
        u.overlay.set(sec, uTarget - u.path.secondClose(sec));
      }
      s.overlay.set(sec, target - t0.apply(u.secondClose(sec)));
    });
    if (inst.kind !== 'CE' && inst.kind !== 'PE') {
      u.invalidateFrom(first);
      for (const other of this.iSeries.values()) if (other.u === u) other.invalidateFrom(first);
    }
    s.invalidateFrom(first);
  }
}
