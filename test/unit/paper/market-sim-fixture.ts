// The shared helpers of the market-*.test.ts simulator files: rates and times of the fixed start,
// years to expiry, decimals, and bar aggregation.
import type { Bar } from '../../../src-main/paper/market/market.js';
import { IST, T0_MS } from '../../support/market-fixtures.js';

export const R = 0.065;
export const YEAR = 365 * 86_400;
export const T0 = T0_MS / 1000;
export const todayStart = Math.floor((T0 + IST) / 86_400) * 86_400 - IST;

/** Years to a 15:30 IST expiry, fixed at the start of the current IST day (as the model does). */
export function tau(expiryDate: string): number {
  const expiry = Date.parse(`${expiryDate}T15:30:00+05:30`) / 1000;
  return (expiry - todayStart) / YEAR;
}

export function decimals(x: number): number {
  const s = String(x);
  return s.includes('.') ? (s.split('.')[1] ?? '').length : 0;
}

export function aggregate(bars: readonly Bar[]): Omit<Bar, 'time'> {
  const first = bars[0] as Bar;
  return {
    open: first.open,
    high: Math.max(...bars.map((b) => b.high)),
    low: Math.min(...bars.map((b) => b.low)),
    close: (bars[bars.length - 1] as Bar).close,
    volume: bars.reduce((s, b) => s + b.volume, 0),
  };
}

export function strip(b: Bar | undefined): Omit<Bar, 'time'> {
  const { time: _time, ...rest } = b as Bar;
  return rest;
}
