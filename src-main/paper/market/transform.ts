// Maps underlying ticks to an instrument's ticks for one IST day and one setPrice offset. Every
// transform is monotone (increasing, or decreasing for puts), so a bar's extremes map from the
// underlying bar's extremes and instrument bars stay consistent by construction.
import type { InstrumentKind } from '../instruments/instrument.js';
import { carryFactor, optionPrice, RISK_FREE_RATE } from './option-model.js';

export interface TickAgg {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

const MEMO_SIZE = 4096;
const EMPTY = -2147483648;

export interface TransformParams {
  kind: InstrumentKind;
  underlyingTick: number;
  tick: number;
  strike: number;
  volatility: number;
  /** Years to expiry for this day (<= 0 once expired); ignored for cash. */
  tau: number;
  /** setPrice offset in instrument ticks. */
  offset: number;
}

export class PriceTransform {
  readonly decreasing: boolean;
  /** True when the map is `u + offset` (cash on the underlying's own tick). */
  readonly shiftOnly: boolean;
  private readonly carry: number;
  // Allocated on first per-second use: day-level work creates many transforms and needs no memo.
  private memoKeys: Int32Array | null = null;
  private memoVals = new Int32Array(0);

  constructor(readonly p: TransformParams) {
    this.decreasing = p.kind === 'PE';
    this.shiftOnly = (p.kind === 'EQ' || p.kind === 'INDEX') && p.tick === p.underlyingTick;
    this.carry = carryFactor(p.tau, RISK_FREE_RATE);
  }

  /** Instrument ticks for underlying ticks `u` (at least one tick). */
  apply(u: number): number {
    if (this.shiftOnly) {
      const t = u + this.p.offset;
      return t < 1 ? 1 : t;
    }
    let keys = this.memoKeys;
    if (!keys) {
      keys = this.memoKeys = new Int32Array(MEMO_SIZE).fill(EMPTY);
      this.memoVals = new Int32Array(MEMO_SIZE);
    }
    const slot = u & (MEMO_SIZE - 1);
    if (keys[slot] === u) return this.memoVals[slot] ?? 1;
    const v = this.compute(u);
    keys[slot] = u;
    this.memoVals[slot] = v;
    return v;
  }

  private compute(u: number): number {
    const p = this.p;
    const spot = u * p.underlyingTick;
    let price: number;
    if (p.kind === 'CE' || p.kind === 'PE') {
      price = optionPrice(p.kind === 'CE', spot, p.strike, p.tau, p.volatility, RISK_FREE_RATE);
    } else if (p.kind === 'FUT') {
      price = spot * this.carry;
    } else {
      price = spot;
    }
    const t = Math.max(1, Math.round(price / p.tick)) + p.offset;
    return t < 1 ? 1 : t;
  }

  /** Instrument ticks for `u` without the memo (for one-off, day- and minute-level use). */
  applyOnce(u: number): number {
    if (this.shiftOnly) {
      const t = u + this.p.offset;
      return t < 1 ? 1 : t;
    }
    return this.compute(u);
  }

  /**
   * Map an underlying aggregate (volume untouched). `memo` suits many small bars of one day
   * (their prices repeat); one-off day or minute aggregates skip it.
   */
  applyAgg(a: TickAgg, out: TickAgg, memo = false): TickAgg {
    // No closure here: this runs once per sub-minute bar.
    const hi = memo ? this.apply(a.h) : this.applyOnce(a.h);
    const lo = memo ? this.apply(a.l) : this.applyOnce(a.l);
    out.o = memo ? this.apply(a.o) : this.applyOnce(a.o);
    out.c = memo ? this.apply(a.c) : this.applyOnce(a.c);
    out.h = this.decreasing ? lo : hi;
    out.l = this.decreasing ? hi : lo;
    out.v = a.v;
    return out;
  }

  /** Inverse for futures/cash: underlying ticks that map closest to `ticks` (before offset). */
  invertLinear(ticks: number): number {
    const factor = this.p.kind === 'FUT' ? this.carry : 1;
    return Math.max(1, Math.round((ticks * this.p.tick) / factor / this.p.underlyingTick));
  }
}
