// Durability: a gateway SIGKILLed in the middle of a stream of orders restarts with every order it
// acknowledged, and its ledger still agrees with itself (positions = Σ trades, funds identity).
// The gateway runs as a child process (the CLI) on loopback; counts and durations are bounded.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../../src-main/paper/auth/key-store.js';
import { LEDGER_FILE } from '../../../src-main/paper/engine/ledger.js';
import { checkLedgerInvariants } from '../../../src-main/paper/engine/ledger-invariants.js';

const ROOT = join(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'paper-crash-'));
const resetDir = mkdtempSync(join(tmpdir(), 'paper-reset-'));
const children: ChildProcessWithoutNullStreams[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(resetDir, { recursive: true, force: true });
});

/** Starts the CLI on a free port and resolves with its URL once it prints `Listening on`. */
function startGateway(
  apikey: string,
  dir = dataDir,
  extra: string[] = [],
): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src-main/paper/cli.ts', '--port', '0', '--data', dir, '--apikey', apikey, ...extra],
    {
      cwd: ROOT,
      env: { ...process.env, ORDER_RATE_LIMIT: '100000', API_RATE_LIMIT: '100000' },
      stdio: 'pipe',
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${out}\n${err}`)), 30_000);
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited (${code}) before listening:\n${out}\n${err}`));
    });
  });
}

const SYMBOLS = ['SBIN', 'INFY', 'TCS', 'RELIANCE', 'ITC'];

async function post(
  url: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('crash durability', () => {
  it('keeps every acknowledged order across a SIGKILL', async () => {
    const apikey = generateApiKey();
    const first = await startGateway(apikey);
    const acknowledged: string[] = [];
    let sent = 0;
    let stop = false;
    const WORKERS = 4;
    const MAX_ORDERS = 600;

    const worker = async (w: number): Promise<void> => {
      for (let n = 0; !stop && sent < MAX_ORDERS; n++) {
        sent += 1;
        const symbol = SYMBOLS[(w + n) % SYMBOLS.length];
        const limit = n % 3 === 2;
        try {
          const r = await post(first.url, '/api/v1/placeorder', {
            apikey,
            strategy: `w${w}`,
            exchange: 'NSE',
            symbol,
            action: n % 2 === 0 ? 'BUY' : 'SELL',
            quantity: 1 + (n % 7),
            pricetype: limit ? 'LIMIT' : 'MARKET',
            // A far-away limit rests (open, margin blocked); MARKET fills against the book.
            price: limit ? 1 : 0,
          });
          if (r.status === 200 && typeof r.body.orderid === 'string') acknowledged.push(r.body.orderid);
        } catch {
          return; // connection cut by the kill: that order was never acknowledged
        }
      }
    };
    const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
    // Kill mid-stream, once a good number of orders is through.
    const started = Date.now();
    while (acknowledged.length < 150 && Date.now() - started < 15_000)
      await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    await new Promise((r) =>
      first.child.exitCode !== null || first.child.signalCode !== null
        ? r(null)
        : first.child.once('exit', r),
    );
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);

    const second = await startGateway(apikey);
    const book = await post(second.url, '/api/v1/orderbook', { apikey });
    expect(book.status).toBe(200);
    const ids = new Set(
      ((book.body.data as { orders: { orderid: string }[] }).orders ?? []).map((o) => o.orderid),
    );
    const missing = acknowledged.filter((id) => !ids.has(id));
    console.log(
      `crash test: ${sent} sent, ${acknowledged.length} acknowledged before SIGKILL, ${ids.size} in the book after restart, ${missing.length} missing`,
    );
    expect(missing).toEqual([]);
    // The restarted gateway keeps working on the same books.
    const after = await post(second.url, '/api/v1/placeorder', {
      apikey,
      strategy: 'after',
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY',
      quantity: 1,
    });
    expect(after.status).toBe(200);
    expect(ids.has(after.body.orderid as string)).toBe(false);

    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
    const db = new Database(join(dataDir, LEDGER_FILE), { readonly: true });
    try {
      expect(checkLedgerInvariants(db)).toEqual([]);
    } finally {
      db.close();
    }
  }, 60_000);
});

/** SIGTERM and wait for the exit. */
async function stopGateway(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

describe('--reset (the CLI: npm run paper -- --reset --data DIR)', () => {
  it('starts fresh books and bumps the mode version seen at /api/v1/analyzer', async () => {
    const apikey = generateApiKey();
    const analyzer = async (url: string) =>
      (await post(url, '/api/v1/analyzer', { apikey })).body.data as {
        mode_version: number;
        total_logs: number;
      };
    const run1 = await startGateway(apikey, resetDir);
    const before = await analyzer(run1.url);
    const placed = await post(run1.url, '/api/v1/placeorder', {
      apikey,
      strategy: 'A',
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY',
      quantity: 3,
    });
    expect(placed.status).toBe(200);
    expect((await analyzer(run1.url)).total_logs).toBe(1);
    await stopGateway(run1.child);

    // Without --reset the books and the version survive a restart.
    const run2 = await startGateway(apikey, resetDir);
    expect(await analyzer(run2.url)).toMatchObject({ total_logs: 1, mode_version: before.mode_version });
    await stopGateway(run2.child);

    const run3 = await startGateway(apikey, resetDir, ['--reset']);
    try {
      expect(await analyzer(run3.url)).toMatchObject({
        total_logs: 0,
        mode_version: before.mode_version + 1,
      });
      const funds = (await post(run3.url, '/api/v1/funds', { apikey })).body.data as Record<string, string>;
      expect(funds).toMatchObject({
        availablecash: '10000000.00',
        utiliseddebits: '0.00',
        m2mrealized: '0.00',
      });
      expect(
        (
          await post(run3.url, '/api/v1/positionsopen', {
            apikey,
            strategy: 'A',
            symbol: 'SBIN',
            exchange: 'NSE',
            product: 'MIS',
          })
        ).body.quantity,
      ).toBe(0);
      const stale = await post(run3.url, '/api/v1/closeposition', {
        apikey,
        strategy: 'A',
        expected_mode: 'analyze',
        expected_balance_type: 'sandbox',
        expected_mode_version: before.mode_version,
        request_id: 'after-cli-reset',
      });
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({
        error_code: 'SERVER_MODE_SWITCH_DETECTED',
        mode: 'analyze',
        balance_type: 'sandbox',
        mode_version: before.mode_version + 1,
      });
    } finally {
      await stopGateway(run3.child);
    }
  }, 60_000);
});
