// Market simulator bench: how long bar requests take for an equity and an option.
// `npx tsx bench/run.ts bars`
import type { Instrument, Underlying } from '../src-main/paper/instruments/instrument.js';
import { ManualClock } from '../src-main/paper/market/clock.js';
import type { BarInterval } from '../src-main/paper/market/market.js';
import { createMarket, type SimulatedMarket } from '../src-main/paper/market/simulator.js';

const NOW_MS = Date.UTC(2026, 10, 20, 9, 0, 0);
const NOW = NOW_MS / 1000;
const DAY = 86_400;

const UNDERLYINGS: ReadonlyMap<string, Underlying> = new Map([
  ['NSE:SBIN', { key: 'NSE:SBIN', name: 'SBIN', basePrice: 770, tickSize: 0.05, volatility: 0.25 }],
  [
    'NSE_INDEX:NIFTY',
    { key: 'NSE_INDEX:NIFTY', name: 'NIFTY', basePrice: 24_000, tickSize: 0.05, volatility: 0.15 },
  ],
]);

const COMMON = { brsymbol: '', name: '', brexchange: '', expiry: '', freezeQty: 10_000, instrumenttype: '' };
const EQUITY: Instrument = {
  ...COMMON,
  id: 1,
  symbol: 'SBIN',
  exchange: 'NSE',
  token: '3045',
  expiryDate: null,
  strike: -0.01,
  lotsize: 1,
  tickSize: 0.05,
  kind: 'EQ',
  underlyingKey: 'NSE:SBIN',
};
const OPTION: Instrument = {
  ...COMMON,
  id: 2,
  symbol: 'NIFTY29DEC2624000CE',
  exchange: 'NFO',
  token: '40001',
  expiryDate: '2026-12-29',
  strike: 24_000,
  lotsize: 75,
  tickSize: 0.05,
  kind: 'CE',
  underlyingKey: 'NSE_INDEX:NIFTY',
};

function market(seed: number): SimulatedMarket {
  return createMarket({ underlyings: UNDERLYINGS, clock: new ManualClock(NOW_MS), seed });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

function time(fn: () => number): { ms: number; n: number } {
  const t = performance.now();
  const n = fn();
  return { ms: performance.now() - t, n };
}

function row(label: string, ms: number, n: number): void {
  console.log(`${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms  (${n} bars)`);
}

export async function run(): Promise<void> {
  const reps = 5;
  for (const inst of [EQUITY, OPTION]) {
    console.log(`\n${inst.kind} ${inst.exchange}:${inst.symbol}`);
    const cases: Array<[string, BarInterval, number]> = [
      ['30 days of 5s bars', '5s', 30 * DAY],
      ['1 day of 1m bars', '1m', DAY],
    ];
    for (const [label, iv, span] of cases) {
      const runs: number[] = [];
      let n = 0;
      for (let r = 0; r < reps; r++) {
        const m = market(r + 1);
        const res = time(() => m.bars(inst, iv, NOW - span, NOW).length);
        runs.push(res.ms);
        n = res.n;
      }
      row(label, median(runs), n);
    }
    // Ten years of daily bars: cold (fresh market, no cached days) and warm (same market again).
    const cold: number[] = [];
    const warm: number[] = [];
    let n = 0;
    for (let r = 0; r < reps; r++) {
      const m = market(100 + r);
      const c = time(() => m.bars(inst, 'D', NOW - 3650 * DAY, NOW).length);
      const w = time(() => m.bars(inst, 'D', NOW - 3650 * DAY, NOW).length);
      cold.push(c.ms);
      warm.push(w.ms);
      n = c.n;
    }
    row('10 years of D bars, cold', median(cold), n);
    row('10 years of D bars, warm', median(warm), n);
    const m = market(1);
    m.bars(inst, 'D', NOW - 3650 * DAY, NOW);
    const months = time(() => m.bars(inst, 'M', NOW - 3650 * DAY, NOW).length);
    row('10 years of M bars, warm', months.ms, months.n);
  }
}
