// Hashed traded volume: per-minute totals, split exactly across the minute's seconds so 1s bars
// sum to the minute bar. Trading is heavier during the NSE session (09:15-15:30 IST) even though
// the paper market is open around the clock.
import { hash2, unit } from './hash.js';

const SESSION_OPEN_MIN = 9 * 60 + 15;
const SESSION_CLOSE_MIN = 15 * 60 + 30;
const IST_OFFSET_MIN = 330;

export class VolumeModel {
  private readonly splitKey: number;

  /**
   * @param key hash identifying the series
   * @param unitSize traded quantity unit (lot size for derivatives, 1 for cash)
   * @param meanUnits mean units per in-session minute
   */
  constructor(
    private readonly key: number,
    readonly unitSize: number,
    private readonly meanUnits: number,
  ) {
    this.splitKey = hash2(key, 0x5b1);
  }

  /** Volume of minute m (epoch minute index), a multiple of the unit size. */
  minute(m: number): number {
    const minOfDay = (((m + IST_OFFSET_MIN) % 1440) + 1440) % 1440;
    const season = minOfDay >= SESSION_OPEN_MIN && minOfDay < SESSION_CLOSE_MIN ? 1 : 0.3;
    const u = unit(hash2(this.key, m));
    return Math.floor(this.meanUnits * season * (0.25 + 1.5 * u * u)) * this.unitSize;
  }

  /** Split `total` (minute m's volume) across its 60 seconds in whole units; exact sum. */
  seconds(m: number, total: number, out: Float64Array): void {
    const units = total / this.unitSize;
    let wsum = 0;
    const base = m * 60;
    for (let s = 0; s < 60; s++) {
      const w = 1 + (hash2(this.splitKey, base + s) & 15);
      out[s] = w;
      wsum += w;
    }
    let cum = 0;
    let prev = 0;
    for (let s = 0; s < 60; s++) {
      cum += out[s] ?? 0;
      const upto = Math.floor((units * cum) / wsum);
      out[s] = (upto - prev) * this.unitSize;
      prev = upto;
    }
  }

  /** Sum of minute volumes over [m0, m1). */
  sum(m0: number, m1: number): number {
    let v = 0;
    for (let m = m0; m < m1; m++) v += this.minute(m);
    return v;
  }
}
