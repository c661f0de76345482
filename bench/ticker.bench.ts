// Ticker over HTTP: 30 days of 5s bars and 10 years of D bars for one equity, JSON and txt.
// Prints the median of several runs, the response size and the bar count.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPaperGateway } from '../src-main/paper/gateway.js';
import { ManualClock } from '../src-main/paper/market/index.js';

const RUNS = 5;
const NOW = Date.parse('2026-11-20T15:30:00+05:30');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'paper-bench-'));
  const gw = await startPaperGateway({
    dataDir,
    clock: new ManualClock(NOW),
    rateLimits: { api: 1e6, ticker: 1e6 },
    extensions: [],
  });
  try {
    const cases = [
      { label: '30 days of 5s', query: 'interval=5s&from=2026-10-22&to=2026-11-20' },
      { label: '10 years of D', query: 'interval=D&from=2016-11-20&to=2026-11-20' },
    ];
    console.log('case                 format  median ms      bytes     bars');
    for (const c of cases) {
      for (const format of ['json', 'txt'] as const) {
        const url = `${gw.url}/api/v1/ticker/NSE:SBIN?${c.query}&format=${format}`;
        const times: number[] = [];
        let bytes = 0;
        let bars = 0;
        // One warm-up run (series caches, JIT), then RUNS timed ones.
        for (let i = 0; i <= RUNS; i++) {
          const t0 = performance.now();
          const res = await fetch(url, { headers: { 'X-API-KEY': gw.apiKey ?? '' } });
          const text = await res.text();
          const ms = performance.now() - t0;
          if (res.status !== 200)
            throw new Error(`${c.label} ${format}: HTTP ${res.status} ${text.slice(0, 200)}`);
          if (i > 0) times.push(ms);
          bytes = Buffer.byteLength(text);
          bars =
            format === 'txt'
              ? text.split('\n').length
              : (JSON.parse(text) as { data: unknown[] }).data.length;
        }
        console.log(
          `${c.label.padEnd(20)} ${format.padEnd(6)} ${median(times).toFixed(1).padStart(10)} ${String(bytes).padStart(10)} ${String(bars).padStart(8)}`,
        );
      }
    }
  } finally {
    await gw.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
