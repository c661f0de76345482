// Order throughput and latency of the embedded paper gateway over loopback HTTP (keep-alive):
// placeorder at 1 and at 50 concurrent connections for 10 s each, then orderbook reads with 5,000
// orders in the book. `npx tsx bench/run.ts orders`. Target: ≥ 3,000 orders/s, p99 < 10 ms at 50.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '../src-main/paper/auth/key-store.js';
import { startPaperGateway } from '../src-main/paper/gateway.js';

const SYMBOLS = [
  'RELIANCE',
  'TCS',
  'HDFCBANK',
  'INFY',
  'ICICIBANK',
  'SBIN',
  'ITC',
  'LT',
  'AXISBANK',
  'KOTAKBANK',
];
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 10_000);

interface Target {
  host: string;
  port: number;
  agent: Agent;
}

function post(t: Target, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: t.host,
        port: t.port,
        path,
        method: 'POST',
        agent: t.agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function orderBody(apikey: string, n: number): string {
  return JSON.stringify({
    apikey,
    strategy: 'bench',
    exchange: 'NSE',
    symbol: SYMBOLS[n % SYMBOLS.length],
    action: n % 2 === 0 ? 'BUY' : 'SELL',
    quantity: 1,
    pricetype: 'MARKET',
    product: 'MIS',
  });
}

async function load(
  t: Target,
  connections: number,
  durationMs: number,
  body: (n: number) => string,
  path = '/api/v1/placeorder',
): Promise<{ count: number; errors: number; seconds: number; lat: number[] }> {
  const lat: number[] = [];
  let n = 0;
  let errors = 0;
  const start = performance.now();
  const end = start + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const i = n++;
        const t0 = performance.now();
        const status = await post(t, path, body(i));
        lat.push(performance.now() - t0);
        if (status !== 200) errors += 1;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  lat.sort((a, b) => a - b);
  return { count: lat.length, errors, seconds, lat };
}

function report(label: string, r: { count: number; errors: number; seconds: number; lat: number[] }): void {
  console.log(
    `${label}: ${r.count} requests in ${r.seconds.toFixed(1)} s = ${(r.count / r.seconds).toFixed(0)}/s, ` +
      `median ${percentile(r.lat, 50).toFixed(2)} ms, p99 ${percentile(r.lat, 99).toFixed(2)} ms, ` +
      `max ${percentile(r.lat, 100).toFixed(2)} ms, non-200 ${r.errors}`,
  );
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'paper-bench-'));
  const big = 1_000_000;
  const gw = await startPaperGateway({
    dataDir,
    rateLimits: { api: big, order: big, smart: big, ticker: big, expiry: big },
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 50 });
  const t: Target = { host: gw.host, port: gw.port, agent };
  try {
    const apikey = gw.apiKey ?? generateApiKey();
    gw.keys.add(apikey);
    // Warm-up: JIT, statement caches, book caches.
    await load(t, 10, 1_000, (n) => orderBody(apikey, n));

    report('placeorder, 1 connection', await load(t, 1, PHASE_MS, (n) => orderBody(apikey, n)));
    report('placeorder, 50 connections', await load(t, 50, PHASE_MS, (n) => orderBody(apikey, n)));

    const reader = generateApiKey();
    gw.keys.add(reader);
    let placed = 0;
    while (placed < 5_000) {
      const r = await load(t, 50, 200, (n) => orderBody(reader, n));
      placed += r.count;
    }
    const readBody = JSON.stringify({ apikey: reader });
    const reads = await load(t, 1, Math.min(PHASE_MS, 5_000), () => readBody, '/api/v1/orderbook');
    report(`orderbook with ${placed} orders, 1 connection`, reads);
  } finally {
    agent.destroy();
    await gw.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
