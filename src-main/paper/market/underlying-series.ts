// An underlying's live series: the base price path plus setPrice's offset overlay, its cash volume,
// and a cache of completed IST-day aggregates (10 years of daily bars would otherwise mean
// re-walking ~5M minutes per request).
import type { Underlying } from '../instruments/instrument.js';
import { hash2, hashString, unit } from './hash.js';
import { Overlay } from './overlay.js';
import { newShape, PricePath, type MinuteShape } from './price-path.js';
import { istDayStart } from './time.js';
import type { TickAgg } from './transform.js';
import { VolumeModel } from './volume.js';

export function newAgg(): TickAgg {
  return { o: 0, h: 0, l: 0, c: 0, v: 0 };
}

/** Fold `x` into `acc` (`first`: acc is empty). */
export function mergeInto(acc: TickAgg, x: TickAgg, first: boolean): void {
  if (first) {
    acc.o = x.o;
    acc.h = x.h;
    acc.l = x.l;
    acc.v = 0;
  } else {
    if (x.h > acc.h) acc.h = x.h;
    if (x.l < acc.l) acc.l = x.l;
  }
  acc.c = x.c;
  acc.v += x.v;
}

export class UnderlyingSeries {
  readonly path: PricePath;
  /** Cash-market volume (what an equity trades); indices zero it at the instrument. */
  readonly volume: VolumeModel;
  readonly overlay = new Overlay();
  private readonly dayCache = new Map<number, TickAgg>();
  /** Today's completed minutes folded so far (see partialDay). */
  private prefix: { day: number; next: number; agg: TickAgg; empty: boolean } | null = null;
  private readonly scratchVol = new Float64Array(60);
  private readonly shape = newShape();
  private readonly scanShape = newShape();
  private readonly baseCloses = new Int32Array(60);
  private readonly scratchOpen = new Int32Array(60);
  private readonly scratchClose = new Int32Array(60);

  /** `anchorMinute`: the epoch minute whose close is the base price (see PricePath). */
  constructor(
    readonly underlying: Underlying,
    seed: number,
    anchorMinute?: number,
  ) {
    const u = underlying;
    this.path = new PricePath(seed, u.key, u.basePrice, u.tickSize, u.volatility, anchorMinute);
    const k = hash2(hashString(u.key), (seed | 0) ^ 0x70105);
    const turnoverPerMinute = 2e6 * Math.exp(3 * unit(hash2(k, 1)));
    this.volume = new VolumeModel(k, 1, Math.max(1, turnoverPerMinute / u.basePrice));
  }

  /** Second closes of epoch second `sec`, overlay included. */
  secondClose(sec: number): number {
    const v = this.path.secondClose(sec) + this.overlay.at(sec);
    return v < 1 ? 1 : v;
  }

  /** The 60 one-second bars of minute m, overlay included (a bar's offset is its second's). */
  seconds(m: number, open: Int32Array, close: Int32Array): void {
    this.secondsOf(m, this.path.minute(m, this.shape), open, close);
  }

  private secondsOf(m: number, sh: MinuteShape, open: Int32Array, close: Int32Array): void {
    const bc = this.baseCloses;
    this.path.seconds(m, sh, bc);
    const base = m * 60;
    const constant = this.overlay.constantOver(base, base + 59);
    let prev = sh.o;
    for (let s = 0; s < 60; s++) {
      const off = constant ?? this.overlay.at(base + s);
      const c = bc[s] ?? 0;
      const o2 = prev + off;
      const c2 = c + off;
      open[s] = o2 < 1 ? 1 : o2;
      close[s] = c2 < 1 ? 1 : c2;
      prev = c;
    }
  }

  /** Minute m's aggregate in ticks, overlay included; v is the cash volume. */
  minute(m: number, out: TickAgg): TickAgg {
    return this.minuteOf(m, this.path.minute(m, this.shape), out);
  }

  private minuteOf(m: number, sh: MinuteShape, out: TickAgg): TickAgg {
    const off = this.overlay.constantOver(m * 60, m * 60 + 59);
    if (off !== undefined) {
      out.o = Math.max(1, sh.o + off);
      out.h = Math.max(1, sh.h + off);
      out.l = Math.max(1, sh.l + off);
      out.c = Math.max(1, sh.c + off);
    } else {
      // setPrice changed the offset inside this minute: aggregate its seconds.
      const o = this.scratchOpen;
      const c = this.scratchClose;
      this.secondsOf(m, sh, o, c);
      let hi = 0;
      let lo = Infinity;
      for (let s = 0; s < 60; s++) {
        const a = o[s] ?? 0;
        const b = c[s] ?? 0;
        hi = Math.max(hi, a, b);
        lo = Math.min(lo, a, b);
      }
      out.o = o[0] ?? 0;
      out.c = c[59] ?? 0;
      out.h = hi;
      out.l = lo;
    }
    out.v = this.volume.minute(m);
    return out;
  }

  /** Aggregate of a whole IST day (callers ask only for completed days); cached. */
  day(d: number): TickAgg {
    const hit = this.dayCache.get(d);
    if (hit) return hit;
    const m0 = istDayStart(d) / 60;
    const agg = newAgg();
    const off = this.overlay.constantOver(m0 * 60, m0 * 60 + 86_399);
    if (off !== undefined) {
      this.path.span(m0, 1440, off, agg);
      agg.v = this.volume.sum(m0, m0 + 1440);
    } else {
      const path = this.path;
      const sh = this.scanShape;
      const one = newAgg();
      let prevClose = path.close(m0 - 1);
      for (let m = m0; m < m0 + 1440; m++) {
        const c = path.close(m);
        this.minuteOf(m, path.shapeFrom(m, prevClose, c, sh), one);
        prevClose = c;
        if (m === m0) {
          agg.o = one.o;
          agg.h = one.h;
          agg.l = one.l;
        } else {
          if (one.h > agg.h) agg.h = one.h;
          if (one.l < agg.l) agg.l = one.l;
        }
        agg.c = one.c;
        agg.v += one.v;
      }
    }
    this.dayCache.set(d, agg);
    return agg;
  }

  /**
   * IST day d from its start to `nowSec` (the day in progress). Completed minutes are folded
   * incrementally, so quoting every strike of an option chain costs one scan of the underlying.
   */
  partialDay(d: number, nowSec: number): TickAgg {
    const m0 = istDayStart(d) / 60;
    const cur = Math.floor(nowSec / 60);
    let p = this.prefix;
    if (!p || p.day !== d || p.next > cur) {
      p = { day: d, next: m0, agg: newAgg(), empty: true };
      this.prefix = p;
    }
    const one = newAgg();
    for (; p.next < cur; p.next++) {
      mergeInto(p.agg, this.minute(p.next, one), p.empty);
      p.empty = false;
    }
    // The minute in progress: its seconds up to now.
    const n = Math.min(60, nowSec - cur * 60 + 1);
    const o = this.scratchOpen;
    const c = this.scratchClose;
    this.seconds(cur, o, c);
    const total = this.volume.minute(cur);
    const vol = this.scratchVol;
    this.volume.seconds(cur, total, vol);
    one.o = o[0] ?? 0;
    one.c = c[n - 1] ?? 0;
    one.h = 0;
    one.l = Infinity;
    one.v = 0;
    for (let s = 0; s < n; s++) {
      one.h = Math.max(one.h, o[s] ?? 0, c[s] ?? 0);
      one.l = Math.min(one.l, o[s] ?? 0, c[s] ?? 0);
      one.v += vol[s] ?? 0;
    }
    const out: TickAgg = { ...p.agg };
    mergeInto(out, one, p.empty);
    return out;
  }

  /** Forget cached days from `d` on (after setPrice). */
  invalidateFrom(d: number): void {
    for (const k of [...this.dayCache.keys()]) if (k >= d) this.dayCache.delete(k);
    this.prefix = null;
  }
}
