// Load generator of bench/orders.bench.ts, run as its own process (forked, on the other core when
// taskset is available) so issuing requests never steals the gateway's event loop. It takes one
// job per IPC message, runs it over keep-alive loopback connections, and answers with latencies.
import { Agent, request } from 'node:http';

/** Order kinds cycled through by request number: fills and resting limits on liquid symbols. */
export interface OrderMix {
  apikey: string;
  symbols: readonly string[];
  /** Per symbol: a BUY limit well below and a SELL limit well above the market (they rest). */
  limits: Readonly<Record<string, { buy: number; sell: number }>>;
}

export interface LoadJob {
  host: string;
  port: number;
  connections: number;
  /** Stop issuing after this long (ms)... */
  durationMs: number;
  /** ...or after this many requests, whichever comes first. */
  maxRequests: number;
  path: string;
  /** 'orders' cycles the mix; 'apikey' posts `{ apikey }` (book reads). */
  body: 'orders' | 'apikey';
  mix: OrderMix;
  /**
   * Offered load in requests/s across all connections (open loop). Latency is then measured from
   * each request's scheduled time, so a stall also counts against the requests queued behind it.
   */
  ratePerSec?: number;
}

export interface LoadResult {
  count: number;
  non200: number;
  /** Status → count of the non-200 answers, and the first few bodies, to say why. */
  statuses: Record<string, number>;
  samples: string[];
  seconds: number;
  /** Milliseconds, ascending. */
  lat: number[];
  bytes: number;
}

export function orderBody(mix: OrderMix, n: number): string {
  const symbol = mix.symbols[Math.floor(n / 4) % mix.symbols.length]!;
  const kind = n % 4;
  const base = {
    apikey: mix.apikey,
    strategy: 'bench',
    exchange: 'NSE',
    symbol,
    quantity: 1,
    product: 'MIS',
  };
  if (kind < 2) return JSON.stringify({ ...base, action: kind === 0 ? 'BUY' : 'SELL', pricetype: 'MARKET' });
  const lim = mix.limits[symbol]!;
  const buy = kind === 2;
  return JSON.stringify({
    ...base,
    action: buy ? 'BUY' : 'SELL',
    pricetype: 'LIMIT',
    price: buy ? lim.buy : lim.sell,
  });
}

function post(
  agent: Agent,
  job: LoadJob,
  body: string,
): Promise<{ status: number; text: string | undefined; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: job.host,
        port: job.port,
        path: job.path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let bytes = 0;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (status !== 200) chunks.push(c);
        });
        res.on('end', () =>
          resolve({ status, text: status === 200 ? undefined : Buffer.concat(chunks).toString(), bytes }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function runJob(job: LoadJob): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const lat: number[] = [];
  const statuses: Record<string, number> = {};
  const samples: string[] = [];
  let n = 0;
  let non200 = 0;
  let bytes = 0;
  const readBody = JSON.stringify({ apikey: job.mix.apikey });
  const start = performance.now();
  const end = start + job.durationMs;
  try {
    await Promise.all(
      Array.from({ length: job.connections }, async () => {
        while (performance.now() < end && n < job.maxRequests) {
          const i = n++;
          const body = job.body === 'orders' ? orderBody(job.mix, i) : readBody;
          let t0 = performance.now();
          if (job.ratePerSec !== undefined) {
            const due = start + (i * 1000) / job.ratePerSec;
            if (due > t0) await new Promise((r) => setTimeout(r, due - t0));
            t0 = due;
          }
          const r = await post(agent, job, body);
          lat.push(performance.now() - t0);
          bytes += r.bytes;
          if (r.status !== 200) {
            non200 += 1;
            statuses[r.status] = (statuses[r.status] ?? 0) + 1;
            if (samples.length < 3 && r.text !== undefined) samples.push(r.text.slice(0, 300));
          }
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - start) / 1000;
  lat.sort((a, b) => a - b);
  return { count: lat.length, non200, statuses, samples, seconds, lat, bytes };
}

// As a forked child: one job per message, one result back; exits when the parent disconnects.
if (process.send !== undefined) {
  const send = process.send.bind(process);
  process.on('message', (job: LoadJob) => {
    runJob(job).then(
      (result) => send({ ok: true, result }),
      (err: unknown) => send({ ok: false, error: err instanceof Error ? err.stack : String(err) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
