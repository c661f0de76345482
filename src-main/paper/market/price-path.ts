// One underlying's base price path in integer ticks, as a pure function of (seed, key, time).
//
// Minute closes are multi-octave value noise in log space around the base price: octave periods
// grow 4x from 1 minute to ~2 years and amplitudes scale like a random walk's (sigma * sqrt(T)),
// capped, so the path looks like a market (~1% a day, tens of % over years) yet never drifts off.
// A minute opens at the previous minute's close; its high/low extend that by hashed excursions.
// Inside a minute, second closes run open -> high/low anchors -> close with hashed jitter clamped
// to [low, high], so 1s bars aggregate exactly into the minute bar by construction.
import { hash2, hashString, unit } from './hash.js';

const MINUTES_PER_YEAR = 525_600;
const OCTAVES = 11;
const AMPLITUDE_GAIN = 1.3;
const AMPLITUDE_CAP = 0.3;
/** NaN: never equal to a lattice index, nor to one plus it. */
const UNSET = NaN;
const PERIODS = Float64Array.from({ length: OCTAVES }, (_, o) => 4 ** o);
/** Octaves 0..2 (periods 1, 4, 16 minutes) are evaluated every minute. */
const FAST_OCTAVES = 3;
const GRID = 64;
const INV_GRID = 1 / GRID;
// Powers of two, so multiplying by the inverse is exact (cheaper than dividing).
const INV_PERIODS = PERIODS.map((p) => 1 / p);

/** A base minute in ticks, plus the seconds at which the high and the low are printed. */
export interface MinuteShape {
  o: number;
  h: number;
  l: number;
  c: number;
  /** Second (0..58) whose close is the high. */
  sH: number;
  /** Second (0..58) whose close is the low; differs from sH. */
  sL: number;
}

export function newShape(): MinuteShape {
  return { o: 0, h: 0, l: 0, c: 0, sH: 0, sL: 1 };
}

export class PricePath {
  private readonly logBase: number;
  private readonly amps = new Float64Array(OCTAVES);
  private readonly octKeys = new Uint32Array(OCTAVES);
  private readonly excursionKey: number;
  private readonly anchorKey: number;
  private readonly jitterKey: number;
  /** Typical excursion of a minute beyond its open/close, in ticks. */
  private readonly excursion: number;
  // Lattice values cached per octave: sequential scans touch each lattice point once.
  private readonly cIdx = new Float64Array(OCTAVES).fill(UNSET);
  private readonly cA = new Float64Array(OCTAVES);
  private readonly cB = new Float64Array(OCTAVES);
  private readonly shape = newShape();
  // Fast-octave lattice values and slow-grid values cached for sequential scans, in a typed array
  // so updates stay unboxed: [i1, a1, b1, i2, a2, b2, g, gA, gB].
  private readonly st = new Float64Array([UNSET, 0, 0, UNSET, 0, 0, UNSET, 0, 0]);

  /**
   * With `anchorMinute`, the whole path is shifted (in log space) so that minute's close is the base
   * price: the instrument master centres strike ladders on the base price, so it must be the price
   * of "today", not just a long-run mean the path may sit 30% away from.
   */
  constructor(
    seed: number,
    key: string,
    basePrice: number,
    tickSize: number,
    volatility: number,
    anchorMinute?: number,
  ) {
    const k = hash2(hashString(key), seed | 0);
    this.logBase = Math.log(basePrice / tickSize);
    for (let o = 0; o < OCTAVES; o++) {
      const period = 4 ** o;
      this.amps[o] = Math.min(
        AMPLITUDE_CAP,
        AMPLITUDE_GAIN * volatility * Math.sqrt(period / MINUTES_PER_YEAR),
      );
      this.octKeys[o] = hash2(k, 0x5eed + o);
    }
    this.excursionKey = hash2(k, 0xe1c);
    this.anchorKey = hash2(k, 0xa2c);
    this.jitterKey = hash2(k, 0x717);
    this.excursion = 1.2 * (basePrice / tickSize) * volatility * Math.sqrt(1 / MINUTES_PER_YEAR);
    if (anchorMinute !== undefined) this.logBase -= Math.log(this.close(anchorMinute)) - this.logBase;
  }

  private lattice(o: number, i: number): number {
    return unit(hash2(this.octKeys[o] as number, i)) * 2 - 1;
  }

  /** Sum of the slow octaves at minute m (exact; used at grid points only). */
  private slowAt(m: number): number {
    const amps = this.amps;
    const cIdx = this.cIdx;
    const cA = this.cA;
    const cB = this.cB;
    let x = 0;
    for (let o = FAST_OCTAVES; o < OCTAVES; o++) {
      const inv = INV_PERIODS[o] as number;
      const i = Math.floor(m * inv);
      const ci = cIdx[o] as number;
      if (i !== ci) {
        if (i === ci + 1) {
          cA[o] = cB[o] as number;
          cB[o] = this.lattice(o, i + 1);
        } else {
          cA[o] = this.lattice(o, i);
          cB[o] = this.lattice(o, i + 1);
        }
        cIdx[o] = i;
      }
      const f = m * inv - i;
      const t = f * f * (3 - 2 * f);
      const a = cA[o] as number;
      x += (amps[o] as number) * (a + ((cB[o] as number) - a) * t);
    }
    return x;
  }

  /**
   * Close of minute `m` (epoch minute index), in ticks, at least one tick. The fast octaves are
   * evaluated per minute; the slow ones on a 64-minute grid and interpolated linearly, which looks
   * the same but makes a ten-year scan several times cheaper.
   */
  close(m: number): number {
    const amps = this.amps;
    const st = this.st;
    const f1 = m * 0.25;
    const i1 = Math.floor(f1);
    const t1 = f1 - i1;
    const f2 = m * 0.0625;
    const i2 = Math.floor(f2);
    const t2 = f2 - i2;
    if (i1 !== st[0]) {
      st[1] = i1 === (st[0] as number) + 1 ? (st[2] as number) : this.lattice(1, i1);
      st[2] = this.lattice(1, i1 + 1);
      st[0] = i1;
    }
    if (i2 !== st[3]) {
      st[4] = i2 === (st[3] as number) + 1 ? (st[5] as number) : this.lattice(2, i2);
      st[5] = this.lattice(2, i2 + 1);
      st[3] = i2;
    }
    const fg = m * INV_GRID;
    const g = Math.floor(fg);
    if (g !== st[6]) {
      st[7] = g === (st[6] as number) + 1 ? (st[8] as number) : this.slowAt(g * GRID);
      st[8] = this.slowAt((g + 1) * GRID);
      st[6] = g;
    }
    const s1 = t1 * t1 * (3 - 2 * t1);
    const s2 = t2 * t2 * (3 - 2 * t2);
    const a1 = st[1] as number;
    const a2 = st[4] as number;
    const gA = st[7] as number;
    const x =
      this.logBase +
      (amps[0] as number) * this.lattice(0, m) +
      (amps[1] as number) * (a1 + ((st[2] as number) - a1) * s1) +
      (amps[2] as number) * (a2 + ((st[5] as number) - a2) * s2) +
      gA +
      ((st[8] as number) - gA) * (fg - g);
    const v = Math.round(Math.exp(x));
    return v < 1 ? 1 : v;
  }

  /**
   * O/H/L/C over minutes [m0, m0 + n) shifted by a constant offset (clamped at one tick): the
   * same numbers as folding `shapeFrom` minute by minute, inlined for ten-year daily scans.
   */
  span(m0: number, n: number, offset: number, out: { o: number; h: number; l: number; c: number }): void {
    let prev = this.close(m0 - 1);
    let hi = -Infinity;
    let lo = Infinity;
    const ex = this.excursion;
    for (let m = m0; m < m0 + n; m++) {
      const c = this.close(m);
      const he = hash2(this.excursionKey, m);
      const a = (he & 0xffff) / 65536;
      const b = (he >>> 16) / 65536;
      const h = (prev > c ? prev : c) + Math.floor(a * a * ex);
      let l = (prev < c ? prev : c) - Math.floor(b * b * ex);
      if (l < 1) l = 1;
      if (h > hi) hi = h;
      if (l < lo) lo = l;
      if (m === m0) out.o = prev;
      prev = c;
    }
    out.o = Math.max(1, out.o + offset);
    out.h = Math.max(1, hi + offset);
    out.l = Math.max(1, lo + offset);
    out.c = Math.max(1, prev + offset);
  }

  /** Fill `out` with minute m's shape given its open and close (lets scans reuse closes). */
  shapeFrom(m: number, o: number, c: number, out: MinuteShape): MinuteShape {
    const he = hash2(this.excursionKey, m);
    const a = (he & 0xffff) / 65536;
    const b = (he >>> 16) / 65536;
    out.o = o;
    out.c = c;
    out.h = Math.max(o, c) + Math.floor(a * a * this.excursion);
    out.l = Math.max(1, Math.min(o, c) - Math.floor(b * b * this.excursion));
    const ha = hash2(this.anchorKey, m);
    const sH = ha % 59;
    let sL = (ha >>> 8) % 58;
    if (sL >= sH) sL++;
    out.sH = sH;
    out.sL = sL;
    return out;
  }

  minute(m: number, out: MinuteShape): MinuteShape {
    const o = this.close(m - 1);
    return this.shapeFrom(m, o, this.close(m), out);
  }

  /** Close of second `s` (0..59) of a minute of the given shape. */
  secondIn(m: number, sh: MinuteShape, s: number): number {
    if (s === 59) return sh.c;
    if (s === sh.sH) return sh.h;
    if (s === sh.sL) return sh.l;
    // Anchors in time order: (-1, open), first extreme, second extreme, (59, close).
    const hFirst = sh.sH < sh.sL;
    const t1 = hFirst ? sh.sH : sh.sL;
    const v1 = hFirst ? sh.h : sh.l;
    const t2 = hFirst ? sh.sL : sh.sH;
    const v2 = hFirst ? sh.l : sh.h;
    let t0: number, v0: number, tb: number, vb: number;
    if (s < t1) {
      t0 = -1;
      v0 = sh.o;
      tb = t1;
      vb = v1;
    } else if (s < t2) {
      t0 = t1;
      v0 = v1;
      tb = t2;
      vb = v2;
    } else {
      t0 = t2;
      v0 = v2;
      tb = 59;
      vb = sh.c;
    }
    const range = sh.h - sh.l;
    const jitter = (unit(hash2(this.jitterKey, m * 60 + s)) - 0.5) * 0.35 * range;
    const v = Math.round(v0 + ((vb - v0) * (s - t0)) / (tb - t0) + jitter);
    return v < sh.l ? sh.l : v > sh.h ? sh.h : v;
  }

  /** All 60 second closes of minute m (the minute opens at sh.o). */
  seconds(m: number, sh: MinuteShape, closes: Int32Array): void {
    for (let s = 0; s < 60; s++) closes[s] = this.secondIn(m, sh, s);
  }

  /** Base close of epoch second `sec`. */
  secondClose(sec: number): number {
    const m = Math.floor(sec / 60);
    return this.secondIn(m, this.minute(m, this.shape), sec - m * 60);
  }
}
