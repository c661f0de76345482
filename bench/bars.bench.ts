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

interface Timing {
  ms: number;
  /** CPU time of this process: steadier than wall time on a busy machine. */
  cpuMs: number;
  n: number;
}

function time(fn: () => number): Timing {
  const c = process.cpuUsage();
  const t = performance.now();
  const n = fn();
  const ms = performance.now() - t;
  const u = process.cpuUsage(c);
  return { ms, cpuMs: (u.user + u.system) / 1000, n };
}

function row(label: string, runs: readonly Timing[]): void {
  const ms = median(runs.map((r) => r.ms));
  const cpu = median(runs.map((r) => r.cpuMs));
  const n = runs[0]?.n ?? 0;
  console.log(
    `${label.padEnd(32)} median ${ms.toFixed(1).padStart(8)} ms wall ${cpu.toFixed(0).padStart(6)} ms cpu  (${n} bars)`,
  );
}

export async function run(): Promise<void> {
  const reps = 5;
  for (const inst of [EQUITY, OPTION]) {
    console.log(`\n${inst.kind} ${inst.exchange}:${inst.symbol} (${reps} runs each)`);
    const cases: Array<[string, BarInterval, number]> = [
      ['30 days of 5s bars', '5s', 30 * DAY],
      ['1 day of 1m bars', '1m', DAY],
    ];
    for (const [label, iv, span] of cases) {
      const runs: Timing[] = [];
      for (let r = 0; r < reps; r++) {
        const m = market(r + 1);
        runs.push(time(() => m.bars(inst, iv, NOW - span, NOW).length));
      }
      row(label, runs);
    }
    // Ten years of daily bars: cold (fresh market, no cached days) then warm (same market again).
    const cold: Timing[] = [];
    const warm: Timing[] = [];
    const months: Timing[] = [];
    for (let r = 0; r < reps; r++) {
      const m = market(100 + r);
      cold.push(time(() => m.bars(inst, 'D', NOW - 3650 * DAY, NOW).length));
      warm.push(time(() => m.bars(inst, 'D', NOW - 3650 * DAY, NOW).length));
      months.push(time(() => m.bars(inst, 'M', NOW - 3650 * DAY, NOW).length));
    }
    row('10 years of D bars, cold', cold);
    row('10 years of D bars, warm', warm);
    row('10 years of M bars, warm', months);
  }
}
