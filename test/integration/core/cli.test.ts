// The CLI, spawned as a user would run it (and in-process through runCli), against an embedded paper
// gateway. Order operations go through the core on the data dir: its risk limits and its journal.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/cli.js';
import { PAPER_PROFILE, Settings, type SettingsInput } from '../../../src-main/contract/index.js';
import { KEYCHAIN_SERVICE } from '../../../src-main/core/index.js';
import { createJournal } from '../../../src-main/core/journal/index.js';
import { startTestGateway, type TestGateway } from '../../support/paper-gateway.js';
import { fakeKeytar } from '../../support/secret-fakes.js';

let gw: TestGateway;
let dataDir: string;

beforeAll(async () => {
  gw = await startTestGateway();
  dataDir = mkdtempSync(join(tmpdir(), 'cli-'));
});
afterAll(async () => {
  await gw?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** The JSON line on stderr (npm may print its own warnings there too). */
  error: Record<string, unknown> | undefined;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['tsx', 'src-main/cli/cli.ts', ...args],
      { env: { ...process.env, ORDERDESK_DATA_DIR: dataDir, ...env }, timeout: 30_000 },
      (err, stdout, stderr) => {
        const line = stderr.split('\n').find((l) => l.startsWith('{'));
        resolve({
          code: err ? (typeof err.code === 'number' ? err.code : 1) : 0,
          stdout,
          stderr,
          error: line ? (JSON.parse(line) as Record<string, unknown>) : undefined,
        });
      },
    );
  });
}

describe('cli', () => {
  it('ping, funds and placeorder print the parsed result as JSON and exit 0', async () => {
    const env = { ORDERDESK_API_KEY: gw.apiKey };
    const [ping, funds, place] = await Promise.all([
      cli(['--url', gw.url, 'ping'], env),
      cli(['--url', gw.url, 'funds'], env),
      cli(
        [
          '--url',
          gw.url,
          'placeorder',
          'symbol=SBIN',
          'exchange=NSE',
          'action=BUY',
          'quantity=1',
          'strategy=cli',
        ],
        env,
      ),
    ]);
    expect(ping.code, ping.stderr).toBe(0);
    expect(JSON.parse(ping.stdout)).toMatchObject({
      status: 'success',
      data: { broker: expect.any(String) },
    });
    expect(funds.code, funds.stderr).toBe(0);
    expect(JSON.parse(funds.stdout).data.availablecash).toMatch(/^\d+\.\d{2}$/);
    expect(place.code, place.stderr).toBe(0);
    const placed = JSON.parse(place.stdout) as { status: string; orderid: string };
    expect(placed).toMatchObject({ status: 'success', orderid: expect.stringMatching(/^\d+$/) });
    for (const r of [ping, funds, place]) expect(r.stdout + r.stderr).not.toContain(gw.apiKey);
  });

  it('a bad key is a typed error on stderr with a non-zero exit', async () => {
    const r = await cli(['--url', gw.url, 'funds'], { ORDERDESK_API_KEY: 'not-the-key-0123456789' });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.error).toMatchObject({ kind: 'forbidden', httpStatus: 403 });
    expect(r.stderr).not.toContain('not-the-key-0123456789');
  });

  it('refuses an apikey= argument without echoing it', async () => {
    const r = await cli(['--url', gw.url, 'funds', 'apikey=supersecretvalue123'], {
      ORDERDESK_API_KEY: gw.apiKey,
    });
    expect(r.code).toBe(2);
    expect(r.error).toMatchObject({ kind: 'invalid_input' });
    expect(String(r.error?.message)).toMatch(/never taken from an argument/);
    expect(r.stderr).not.toContain('supersecretvalue123');
  });

  it('parses JSON values (a basket) and reports invalid input (exit 2) before any request', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const urls: string[] = [];
    const io = {
      env: { ORDERDESK_API_KEY: gw.apiKey, ORDERDESK_DATA_DIR: dataDir },
      stdout: (t: string) => out.push(t),
      stderr: (t: string) => err.push(t),
      keytar: null,
      fetch: ((input: string | URL | Request, init?: RequestInit) => {
        urls.push(String(input));
        return fetch(input, init);
      }) as typeof fetch,
    };
    // Sizes no other test here sends: the data dir is shared, and the duplicate guard remembers the
    // journal's orders of the last 2 s (the first test's SBIN BUY 1 may be that recent).
    const legs = JSON.stringify([
      { symbol: 'SBIN', exchange: 'NSE', action: 'BUY', quantity: 7 },
      { symbol: 'TCS', exchange: 'NSE', action: 'BUY', quantity: 7 },
    ]);
    expect(await runCli(['--url', gw.url, 'basketorder', 'strategy=cli', `orders=${legs}`], io)).toBe(0);
    expect(JSON.parse(out.join('')).results).toHaveLength(2);
    expect(
      await runCli(
        [
          '--url',
          gw.url,
          'placeorder',
          'symbol=SBIN',
          'exchange=NSE',
          'action=HOLD',
          'quantity=1',
          'strategy=cli',
        ],
        io,
      ),
    ).toBe(2);
    // The router's schema refuses it, as it would the app's ticket.
    expect(JSON.parse(err.join(''))).toMatchObject({
      kind: 'invalid_input',
      message: expect.stringMatching(/action/),
    });
    expect(urls.filter((u) => u.endsWith('/placeorder'))).toEqual([]);
  });

  it('runs as `npm run cli -- …`', async () => {
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'npm',
        ['run', '--silent', 'cli', '--', '--url', gw.url, 'funds'],
        {
          env: { ...process.env, ORDERDESK_DATA_DIR: dataDir, ORDERDESK_API_KEY: gw.apiKey },
          timeout: 30_000,
        },
        (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'success',
      data: { availablecash: expect.any(String) },
    });
  });

  it('--profile NAME takes the URL from settings and the key from that profile’s keychain entry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-profile-'));
    try {
      const settings = Settings.parse({
        profiles: [PAPER_PROFILE, { id: 'remote', name: 'Remote desk', baseUrl: gw.url }],
        activeProfileId: 'paper',
      });
      writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings));
      const keychain = fakeKeytar();
      keychain.items.set(`${KEYCHAIN_SERVICE}/remote`, gw.apiKey);
      const out: string[] = [];
      const err: string[] = [];
      const urls: string[] = [];
      const io = {
        env: { ORDERDESK_DATA_DIR: dir },
        stdout: (t: string) => out.push(t),
        stderr: (t: string) => err.push(t),
        keytar: async () => keychain.keytar,
        fetch: ((input: string | URL | Request, init?: RequestInit) => {
          urls.push(String(input));
          return fetch(input, init);
        }) as typeof fetch,
      };
      expect(await runCli(['--profile', 'remote desk', 'funds'], io), err.join('')).toBe(0);
      expect(JSON.parse(out.join(''))).toMatchObject({ status: 'success' });
      expect(urls).toEqual([`${gw.url}/api/v1/funds`]);
      // The active profile (paper) has no fixed URL: the CLI says to pass --url.
      err.length = 0;
      expect(await runCli(['funds'], io)).toBe(2);
      expect(JSON.parse(err.join(''))).toMatchObject({ kind: 'invalid_input', message: /--url/ });
      // Without the keychain entry there is no key, and the error says where to put one.
      keychain.items.delete(`${KEYCHAIN_SERVICE}/remote`);
      err.length = 0;
      expect(await runCli(['--profile', 'remote', 'funds'], io)).toBe(1);
      expect(JSON.parse(err.join(''))).toMatchObject({ kind: 'no_key', message: /profile remote/ });
      expect(urls).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without any key says where to put one', async () => {
    const err: string[] = [];
    const code = await runCli(['--url', gw.url, 'funds'], {
      env: { ORDERDESK_DATA_DIR: dataDir },
      stdout: () => undefined,
      stderr: (t) => err.push(t),
      keytar: null,
    });
    expect(code).toBe(1);
    expect(JSON.parse(err.join(''))).toMatchObject({
      kind: 'no_key',
      message: expect.stringMatching(/ORDERDESK_API_KEY/),
    });
  });
});

describe('cli orders go through the core', () => {
  /** A data dir with these settings, removed after the test. */
  function dataDirWith(settings: SettingsInput): string {
    const dir = mkdtempSync(join(tmpdir(), 'cli-core-'));
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(Settings.parse(settings)));
    dirs.push(dir);
    return dir;
  }
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** The order book of one account, straight from the gateway. */
  async function orderBook(key: string): Promise<{ orderid: string; quantity: number | string }[]> {
    const r = await gw.post('/api/v1/orderbook', { apikey: key });
    expect(r.status).toBe(200);
    return (r.body.data as { orders: { orderid: string; quantity: number | string }[] }).orders;
  }

  const order = (quantity: number) => [
    'placeorder',
    'symbol=SBIN',
    'exchange=NSE',
    'action=BUY',
    `quantity=${quantity}`,
    'pricetype=MARKET',
    'product=MIS',
    'strategy=cli',
  ];

  it('a placeorder over the settings’ quantity limit is refused with the reason, exit 1, and never sent', async () => {
    // A fresh account, so its order book holds only what this test sends.
    const key = gw.newKey();
    const dir = dataDirWith({ risk: { maxQuantityPerOrder: 5 } });
    const r = await cli(['--url', gw.url, ...order(10)], { ORDERDESK_API_KEY: key, ORDERDESK_DATA_DIR: dir });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.error).toMatchObject({
      kind: 'risk',
      message: expect.stringMatching(/Quantity 10 exceeds your limit of 5 per order/),
    });
    expect(await orderBook(key)).toEqual([]);
    expect(r.stdout + r.stderr).not.toContain(key);
    // The refusal is journalled too, as the app's is ("what did I try?").
    const journal = createJournal({ dbPath: join(dir, 'journal.db') });
    try {
      expect(journal.query({ profileId: 'cli' })).toMatchObject([
        { operation: 'placeorder', outcome: 'error', error: { kind: 'risk' }, orderIds: [] },
      ]);
    } finally {
      journal.close();
    }
  });

  it('a placeorder within the limits is in the journal and in the gateway’s order book exactly once', async () => {
    const key = gw.newKey();
    const dir = dataDirWith({ risk: { maxQuantityPerOrder: 5 } });
    const r = await cli(['--url', gw.url, ...order(3)], { ORDERDESK_API_KEY: key, ORDERDESK_DATA_DIR: dir });
    expect(r.code, r.stderr).toBe(0);
    const { orderid } = JSON.parse(r.stdout) as { orderid: string };
    expect(orderid).toMatch(/^\d+$/);

    const book = await orderBook(key);
    expect(book.map((o) => o.orderid)).toEqual([orderid]);
    expect(Number(book[0]?.quantity)).toBe(3);

    const journal = createJournal({ dbPath: join(dir, 'journal.db') });
    try {
      const entries = journal.query({ profileId: 'cli' });
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        operation: 'placeorder',
        outcome: 'ok',
        orderIds: [orderid],
        request: { symbol: 'SBIN', quantity: 3, strategy: 'cli' },
      });
      // The key is never journalled.
      expect(JSON.stringify(entries)).not.toContain(key);
    } finally {
      journal.close();
    }
  });

  it('the same order again within the duplicate window is held back in a later run, unless confirmed', async () => {
    const key = gw.newKey();
    const dir = dataDirWith({ risk: { duplicateWindowMs: 60_000 } });
    // Each runCli starts (and stops) a core of its own, as a separate `npm run cli` does: only the
    // journal on the data dir links the runs.
    const run = async (args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(['--url', gw.url, ...args], {
        env: { ORDERDESK_API_KEY: key, ORDERDESK_DATA_DIR: dir },
        stdout: (t) => out.push(t),
        stderr: (t) => err.push(t),
        keytar: null,
      });
      return { code, out: out.join(''), err: err.join('') };
    };
    const first = await run(order(2));
    expect(first.code, first.err).toBe(0);
    const again = await run(order(2));
    expect(again.code).toBe(1);
    expect(JSON.parse(again.err)).toMatchObject({
      kind: 'duplicate',
      message: expect.stringMatching(/The same order \(BUY 2 SBIN NSE MARKET MARKET MIS\) was sent .* ago/),
    });
    const confirmed = await run([...order(2), 'confirmDuplicate=true']);
    expect(confirmed.code, confirmed.err).toBe(0);

    const placed = [first, confirmed].map((r) => (JSON.parse(r.out) as { orderid: string }).orderid);
    expect((await orderBook(key)).map((o) => o.orderid).sort()).toEqual([...placed].sort());
    const journal = createJournal({ dbPath: join(dir, 'journal.db') });
    try {
      expect(journal.query({ profileId: 'cli', order: 'asc' })).toMatchObject([
        { outcome: 'ok', orderIds: [placed[0]] },
        { outcome: 'error', error: { kind: 'duplicate' } },
        { outcome: 'ok', orderIds: [placed[1]] },
      ]);
    } finally {
      journal.close();
    }
  });

  it('options orders are not offered: the CLI sends no order around the core', async () => {
    const err: string[] = [];
    const urls: string[] = [];
    const code = await runCli(['--url', gw.url, 'optionsorder', 'strategy=cli'], {
      env: { ORDERDESK_API_KEY: gw.apiKey, ORDERDESK_DATA_DIR: dataDir },
      stdout: () => undefined,
      stderr: (t) => err.push(t),
      keytar: null,
      fetch: ((input: string | URL | Request, init?: RequestInit) => {
        urls.push(String(input));
        return fetch(input, init);
      }) as typeof fetch,
    });
    expect(code).toBe(2);
    expect(JSON.parse(err.join(''))).toMatchObject({ kind: 'invalid_input', message: /not offered/ });
    expect(urls).toEqual([]);
  });
});
