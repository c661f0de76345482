// One instrument's series: the underlying's ticks mapped through the instrument's day transform
// (identity, carry, or Black-Scholes) plus its own setPrice offset, with its own volume, open
// interest and daily-aggregate cache.
import type { Instrument } from '../instruments/instrument.js';
import type { CorporateAction } from './corporate-actions.js';
import { hash2, hashString, unit } from './hash.js';
import { YEAR_SEC } from './option-model.js';
import { Overlay } from './overlay.js';
import { TickFormat } from './ticks.js';
import { dateToIstDay, istDay, istDayStart } from './time.js';
import { PriceTransform, type TickAgg } from './transform.js';
import { mergeInto, newAgg, type UnderlyingSeries } from './underlying-series.js';

import { VolumeModel } from './volume.js';

/** Options and futures expire at 15:30 IST on their expiry date. */
const EXPIRY_TIME_SEC = 15.5 * 3600;

interface Prefix {
  day: number;
  /** First minute not yet folded into `agg`. */
  next: number;
  agg: TickAgg;
  empty: boolean;
}

export class InstrumentSeries {
  readonly keyHash: number;
  readonly tick: TickFormat;
  readonly overlay = new Overlay();
  readonly isDerivative: boolean;
  /** Own volume for derivatives; null means the underlying's cash volume (zeroed for indices). */
  private readonly ownVolume: VolumeModel | null;
  private readonly expirySec: number | null;
  readonly split: CorporateAction | null;
  private readonly dayCache = new Map<number, TickAgg>();
  private prefix: Prefix | null = null;
  private readonly transforms = new Map<string, PriceTransform>();
  private lastT: PriceTransform | null = null;
  private lastTDay = NaN;
  private lastTOff = NaN;
  private readonly uOpen = new Int32Array(60);
  private readonly uClose = new Int32Array(60);
  private readonly sOpen = new Int32Array(60);
  private readonly sClose = new Int32Array(60);
  private readonly sVol = new Float64Array(60);
  private readonly uAgg = newAgg();
  private readonly mAgg = newAgg();

  constructor(
    readonly inst: Instrument,
    readonly u: UnderlyingSeries,
    seed: number,
    split: CorporateAction | null,
  ) {
    this.keyHash = hash2(hashString(`${inst.exchange}:${inst.symbol}`), seed | 0);
    this.tick = new TickFormat(inst.tickSize);
    this.isDerivative = inst.kind === 'FUT' || inst.kind === 'CE' || inst.kind === 'PE';
    this.split = inst.kind === 'EQ' ? split : null;
    this.expirySec = inst.expiryDate ? istDayStart(dateToIstDay(inst.expiryDate)) + EXPIRY_TIME_SEC : null;
    if (this.isDerivative) {
      const lot = Math.max(1, inst.lotsize);
      const mean = (inst.kind === 'FUT' ? 20 : 5) + 120 * unit(hash2(this.keyHash, 0x701));
      this.ownVolume = new VolumeModel(hash2(this.keyHash, 0x702), lot, mean);
    } else {
      this.ownVolume = null;
    }
  }

  get kind(): Instrument['kind'] {
    return this.inst.kind;
  }

  /** Years to expiry used for the whole IST day `day` (fixed per day so the transform is too). */
  tau(day: number): number {
    return this.expirySec === null ? 0 : (this.expirySec - istDayStart(day)) / YEAR_SEC;
  }

  transform(day: number, offset: number): PriceTransform {
    if (day === this.lastTDay && offset === this.lastTOff && this.lastT) return this.lastT;
    const key = `${day}:${offset}`;
    let t = this.transforms.get(key);
    if (!t) {
      if (this.transforms.size > 64) this.transforms.clear();
      t = new PriceTransform({
        kind: this.inst.kind,
        underlyingTick: this.u.underlying.tickSize,
        tick: this.inst.tickSize,
        strike: this.inst.strike,
        volatility: this.u.underlying.volatility,
        tau: this.tau(day),
        offset,
      });
      this.transforms.set(key, t);
    }
    this.lastT = t;
    this.lastTDay = day;
    this.lastTOff = offset;
    return t;
  }

  volumeMinute(m: number): number {
    if (this.ownVolume) return this.ownVolume.minute(m);
    return this.inst.kind === 'INDEX' ? 0 : this.u.volume.minute(m);
  }

  /** Close of epoch second `sec` in instrument ticks. */
  secondClose(sec: number): number {
    return this.transform(istDay(sec), this.overlay.at(sec)).apply(this.u.secondClose(sec));
  }

  /** First n one-second bars of minute m: open/close ticks and volume. */
  seconds(m: number, n: number, open: Int32Array, close: Int32Array, vol: Float64Array): void {
    const uo = this.uOpen;
    const uc = this.uClose;
    this.u.seconds(m, uo, uc);
    const base = m * 60;
    const day = istDay(base);
    const constant = this.overlay.constantOver(base, base + 59);
    let t = this.transform(day, constant ?? 0);
    for (let s = 0; s < n; s++) {
      if (constant === undefined) t = this.transform(day, this.overlay.at(base + s));
      open[s] = t.apply(uo[s] ?? 1);
      close[s] = t.apply(uc[s] ?? 1);
    }
    const total = this.volumeMinute(m);
    if (total === 0) vol.fill(0);
    else (this.ownVolume ?? this.u.volume).seconds(m, total, vol);
  }

  /** Underlying one-second bars of minute m (ticks) with this instrument's volume. */
  underlyingSeconds(m: number, open: Int32Array, close: Int32Array, vol: Float64Array): void {
    this.u.seconds(m, open, close);
    const total = this.volumeMinute(m);
    if (total === 0) vol.fill(0);
    else (this.ownVolume ?? this.u.volume).seconds(m, total, vol);
  }

  /** Minute m's aggregate; when it holds `nowSec`, only its seconds up to now. */
  minute(m: number, nowSec: number, out: TickAgg): TickAgg {
    const base = m * 60;
    const off = base + 59 <= nowSec ? this.overlay.constantOver(base, base + 59) : undefined;
    if (off !== undefined) {
      this.u.minute(m, this.uAgg);
      this.transform(istDay(base), off).applyAgg(this.uAgg, out);
      out.v = this.ownVolume ? this.ownVolume.minute(m) : this.inst.kind === 'INDEX' ? 0 : this.uAgg.v;
      return out;
    }
    const n = Math.min(60, nowSec - base + 1);
    const o = this.sOpen;
    const c = this.sClose;
    const v = this.sVol;
    this.seconds(m, n, o, c, v);
    let hi = 0;
    let lo = Infinity;
    let vol = 0;
    for (let s = 0; s < n; s++) {
      const a = o[s] ?? 0;
      const b = c[s] ?? 0;
      hi = Math.max(hi, a, b);
      lo = Math.min(lo, a, b);
      vol += v[s] ?? 0;
    }
    out.o = o[0] ?? 0;
    out.c = c[n - 1] ?? 0;
    out.h = hi;
    out.l = lo;
    out.v = vol;
    return out;
  }

  /** Aggregate of IST day d up to `nowSec` (whole day when complete; cached then). */
  day(d: number, nowSec: number): TickAgg {
    const start = istDayStart(d);
    if (start + 86_400 <= nowSec) {
      const hit = this.dayCache.get(d);
      if (hit) return hit;
      const agg = this.completeDay(d, start);
      this.dayCache.set(d, agg);
      return agg;
    }
    return this.partialDay(d, start, nowSec);
  }

  private completeDay(d: number, start: number): TickAgg {
    const off = this.overlay.constantOver(start, start + 86_399);
    const m0 = start / 60;
    if (off !== undefined) {
      const ua = this.u.day(d);
      const agg = this.transform(d, off).applyAgg(ua, newAgg());
      if (this.ownVolume) agg.v = this.ownVolume.sum(m0, m0 + 1440);
      else if (this.inst.kind === 'INDEX') agg.v = 0;
      return agg;
    }
    const agg = newAgg();
    for (let m = m0; m < m0 + 1440; m++) mergeInto(agg, this.minute(m, Infinity, this.mAgg), m === m0);
    return agg;
  }

  /**
   * The day so far. With one setPrice offset all day, the underlying's day so far is mapped
   * through today's transform (monotone, so extremes map to extremes); otherwise this
   * instrument's minutes are folded incrementally.
   */
  private partialDay(d: number, start: number, nowSec: number): TickAgg {
    const m0 = start / 60;
    const cur = Math.floor(nowSec / 60);
    const off = this.overlay.constantOver(start, nowSec);
    if (off !== undefined) {
      const ua = this.u.partialDay(d, nowSec);
      const agg = this.transform(d, off).applyAgg(ua, newAgg());
      if (this.inst.kind === 'INDEX') agg.v = 0;
      else if (this.ownVolume) {
        const vol = this.sVol;
        this.ownVolume.seconds(cur, this.ownVolume.minute(cur), vol);
        let v = this.ownVolume.sum(m0, cur);
        for (let s = 0; s <= nowSec - cur * 60 && s < 60; s++) v += vol[s] ?? 0;
        agg.v = v;
      }
      return agg;
    }
    let p = this.prefix;
    if (!p || p.day !== d || p.next > cur) {
      p = { day: d, next: m0, agg: newAgg(), empty: true };
      this.prefix = p;
    }
    for (; p.next < cur; p.next++) {
      mergeInto(p.agg, this.minute(p.next, nowSec, this.mAgg), p.empty);
      p.empty = false;
    }
    const out: TickAgg = { ...p.agg };
    mergeInto(out, this.minute(cur, nowSec, this.mAgg), p.empty);
    return out;
  }

  /** Open interest at `sec`: derivatives only, drifting hour by hour. */
  openInterest(sec: number): number {
    if (!this.isDerivative) return 0;
    const lot = Math.max(1, this.inst.lotsize);
    const baseLots = 500 + 20_000 * unit(hash2(this.keyHash, 0x01));
    const drift = 0.8 + 0.4 * unit(hash2(this.keyHash, Math.floor(sec / 3600)));
    return Math.floor(baseLots * drift) * lot;
  }

  /** Quantity of the last trade at `sec`. */
  lastQuantity(sec: number): number {
    if (this.inst.kind === 'INDEX') return 0;
    const u = unit(hash2(this.keyHash ^ 0x17a, sec));
    if (this.isDerivative) return Math.max(1, this.inst.lotsize) * (1 + Math.floor(u * u * 10));
    return 1 + Math.floor(u * u * u * 500);
  }

  invalidateFrom(d: number): void {
    for (const k of [...this.dayCache.keys()]) if (k >= d) this.dayCache.delete(k);
    this.prefix = null;
  }
}
