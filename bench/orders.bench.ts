// Order throughput and latency of the embedded paper gateway over loopback HTTP (keep-alive):
// placeorder at 1 and at 50 concurrent connections for 10 s each, then orderbook reads with 5,000
// orders in the book. `npx tsx bench/run.ts orders`. Target: ≥ 3,000 orders/s, p99 < 10 ms at 50,
// with the gateway on one core and the load generator (bench/orders-load.ts) in another process.
//
// Every counted request must answer 200: the account has ₹1,000 crore, rate limits are lifted, and
// the mix (MARKET buys/sells that fill, LIMIT buys/sells far from the market that rest) stays on
// symbols whose book depth covers the fill rate. Any non-200 is printed and fails the bench.
// BENCH_PHASE_MS shortens the phases; BENCH_GROUP_COMMIT=0 measures without group commit.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateApiKey } from '../src-main/paper/auth/key-store.js';
import { engineExtension } from '../src-main/paper/engine/extension.js';
import { startPaperGateway, type PaperGateway } from '../src-main/paper/gateway.js';
import type { LoadJob, LoadResult, OrderMix } from './orders-load.js';

// Deep books (thousands of shares a side each second), so quantity-1 MARKET orders always fill.
const SYMBOLS = ['TATASTEEL', 'ONGC', 'NTPC', 'POWERGRID', 'ITC'];
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 10_000);
const BOOK_ORDERS = 5_000;
const CAPITAL = 10_000_000_000;
const here = dirname(fileURLToPath(import.meta.url));

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Pins this process (all threads) to CPU 0 and returns the taskset prefix for the other core. */
function pinCores(): string[] {
  try {
    execFileSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' });
    return ['taskset', '-c', '1'];
  } catch {
    return [];
  }
}

class LoadClient {
  private readonly child: ChildProcess;
  private pending: { resolve: (r: LoadResult) => void; reject: (e: Error) => void } | undefined;

  constructor(taskset: string[]) {
    const script = join(here, 'orders-load.ts');
    // fork() runs node; with taskset, spawn the same command pinned to the other core.
    this.child =
      taskset.length > 0
        ? fork(script, [], {
            execPath: taskset[0],
            execArgv: [...taskset.slice(1), process.execPath, '--import', 'tsx'],
            stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
          })
        : fork(script, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: { ok: true; result: LoadResult } | { ok: false; error: string }) => {
      const p = this.pending;
      this.pending = undefined;
      if (m.ok) p?.resolve(m.result);
      else p?.reject(new Error(`load generator failed: ${m.error}`));
    });
    this.child.on('exit', (code) => {
      this.pending?.reject(new Error(`load generator exited ${code}`));
      this.pending = undefined;
    });
  }

  /** Runs a job; `cpuMs` is this (gateway) process's CPU time meanwhile, immune to other load. */
  async run(job: LoadJob): Promise<LoadResult & { cpuMs: number }> {
    const before = process.cpuUsage();
    const result = await new Promise<LoadResult>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.send(job);
    });
    const used = process.cpuUsage(before);
    return { ...result, cpuMs: (used.user + used.system) / 1000 };
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
  }
}

let failures = 0;
function report(label: string, r: LoadResult & { cpuMs: number }): void {
  const cpuUs = (r.cpuMs * 1000) / Math.max(1, r.count);
  console.log(
    `${label}: ${r.count} requests in ${r.seconds.toFixed(1)} s = ${(r.count / r.seconds).toFixed(0)}/s, ` +
      `median ${percentile(r.lat, 50).toFixed(2)} ms, p99 ${percentile(r.lat, 99).toFixed(2)} ms, ` +
      `max ${percentile(r.lat, 100).toFixed(2)} ms, non-200 ${r.non200}; ` +
      `gateway CPU ${cpuUs.toFixed(0)} µs/request (≤ ${(1e6 / cpuUs).toFixed(0)}/s on one core)`,
  );
  checkOk(label, r);
}

function checkOk(label: string, r: LoadResult): void {
  if (r.non200 === 0) return;
  failures += 1;
  console.error(`  FAIL ${label}: ${r.non200} non-200 answers ${JSON.stringify(r.statuses)}`);
  for (const s of r.samples) console.error(`    ${s}`);
}

/** Limit prices on the tick grid, 20% away from the market, so LIMIT orders rest for the run. */
function restingLimits(gw: PaperGateway): OrderMix['limits'] {
  const out: Record<string, { buy: number; sell: number }> = {};
  for (const symbol of SYMBOLS) {
    const inst = gw.master.get('NSE', symbol);
    if (!inst) throw new Error(`bench symbol ${symbol} is not in the master`);
    const ltp = gw.market.lastPrice(inst);
    const ticks = (p: number) => Math.round(p / inst.tickSize);
    const price = (t: number) => Number((t * inst.tickSize).toFixed(4));
    out[symbol] = { buy: price(ticks(ltp * 0.8)), sell: price(ticks(ltp * 1.2)) };
  }
  return out;
}

export async function run(): Promise<void> {
  const taskset = pinCores();
  console.log(
    taskset.length > 0
      ? 'gateway pinned to CPU 0, load generator on CPU 1'
      : 'taskset unavailable: processes not pinned',
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'paper-bench-'));
  const big = 1_000_000;
  const gw = await startPaperGateway({
    dataDir,
    rateLimits: { api: big, order: big, smart: big, ticker: big, expiry: big },
    extensions: [engineExtension({ capital: CAPITAL, groupCommit: process.env.BENCH_GROUP_COMMIT !== '0' })],
  });
  const client = new LoadClient(taskset);
  try {
    const limits = restingLimits(gw);
    const mixFor = (apikey: string): OrderMix => ({ apikey, symbols: SYMBOLS, limits });
    const job = (mix: OrderMix, connections: number, durationMs: number, extra: Partial<LoadJob> = {}) => ({
      host: gw.host,
      port: gw.port,
      connections,
      durationMs,
      maxRequests: Number.MAX_SAFE_INTEGER,
      path: '/api/v1/placeorder',
      body: 'orders' as const,
      mix,
      ...extra,
    });

    const writer = mixFor(gw.apiKey ?? generateApiKey());
    gw.keys.add(writer.apikey);
    // Warm-up: JIT, statement caches, book caches.
    checkOk('warm-up', await client.run(job(writer, 10, 1_000)));

    report('placeorder, 1 connection', await client.run(job(writer, 1, PHASE_MS)));
    report('placeorder, 50 connections', await client.run(job(writer, 50, PHASE_MS)));
    // The target as stated: 3,000 orders/s offered over 50 connections, p99 under 10 ms.
    report(
      'placeorder, 50 connections, offered 3000/s',
      await client.run(job(writer, 50, PHASE_MS, { ratePerSec: 3_000 })),
    );

    const reader = mixFor(generateApiKey());
    gw.keys.add(reader.apikey);
    const fill = await client.run(job(reader, 50, 60_000, { maxRequests: BOOK_ORDERS }));
    checkOk('orderbook fill', fill);
    const reads = await client.run(
      job(reader, 1, Math.min(PHASE_MS, 5_000), { path: '/api/v1/orderbook', body: 'apikey' }),
    );
    report(`orderbook with ${fill.count} orders, 1 connection`, reads);
    console.log(`  (${(reads.bytes / Math.max(1, reads.count) / 1024).toFixed(0)} KiB per read)`);
  } finally {
    client.close();
    await gw.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (failures > 0) throw new Error(`orders bench: ${failures} phase(s) had non-200 answers`);
}
