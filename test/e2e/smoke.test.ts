// Browser mode end to end: the web host as a child process (temp data dir, port 0, the embedded paper
// gateway), the built renderer in real Chromium through the one-time link, window.bridge over the
// WebSocket, and raw WebSocket clients the host must refuse.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AlertEvent, BridgeApi, BridgeHostFrame } from '../../src-main/contract/index.js';
import { runWebToExit, SHOTS, startHostAndBrowser, type WebProcess } from '../support/web-process.js';

// The page's global, as seen by functions page.evaluate runs in the page (this file has no DOM types).
declare const window: { bridge: BridgeApi };

/** What a 64-hex API key looks like; no frame to the page may hold one. */
const KEY_SHAPE = /[0-9a-f]{64}/i;

const dataDir = mkdtempSync(join(tmpdir(), 'web-e2e-'));
let web: WebProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageProblems: string[] = [];
const framesToPage: string[] = [];

beforeAll(async () => {
  [web, browser] = await startHostAndBrowser(dataDir);
  context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') pageProblems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => pageProblems.push(`pageerror: ${e.message}`));
  page.on('websocket', (ws) => ws.on('framereceived', (f) => framesToPage.push(String(f.payload))));
});

afterAll(async () => {
  await browser?.close();
  await web?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The session cookie the browser got for the token, as a Cookie header. */
async function sessionCookie(): Promise<string> {
  const cookies = await context.cookies(web.origin);
  const session = cookies.find((c) => c.name === `orderdesk_session_${web.port}`);
  if (!session) throw new Error('no session cookie in the browser');
  return `${session.name}=${session.value}`;
}

/** Opens a raw bridge socket; resolves with the HTTP status of a refusal or 'open'. */
function rawConnect(headers: Record<string, string>): Promise<number | 'open'> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/bridge`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', (err) => reject(err));
  });
}

describe('browser mode in Chromium', () => {
  it('the one-time link opens the desk on the clean URL: PAPER, connected to the embedded paper gateway', async () => {
    const response = await page.goto(web.url);
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(`${web.origin}/`);
    await expect.poll(() => page.getByTestId('mode').textContent(), { timeout: 10_000 }).toBe('PAPER');
    await expect
      .poll(() => page.getByTestId('connection').getAttribute('data-state'), { timeout: 20_000 })
      .toBe('connected');
    await expect.poll(() => page.getByTestId('profile').textContent()).toMatch(/^OrderDesk · /);
    await expect
      .poll(async () => (await page.getByTestId('refreshed').textContent())?.trim())
      .toMatch(/^refreshed \d\d:\d\d:\d\d IST$/);
    // Paper uses no key, and an idle tray has nothing to say: neither is shown.
    expect(await page.getByTestId('key').count()).toBe(0);
    expect(await page.getByTestId('tray').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'web-desk-1280x720.png') });
  });

  it('the token works once: a fresh browser with the same link gets no session', async () => {
    const other = await browser.newContext();
    try {
      const p = await other.newPage();
      const r = await p.goto(web.url);
      expect(r?.status()).toBe(403);
      const again = await p.goto(`${web.origin}/`);
      expect(again?.status()).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('the page calls a channel and gets the parsed result', async () => {
    const funds = await page.evaluate(() => window.bridge.invoke('books.funds'));
    expect(funds.ok).toBe(true);
    if (funds.ok) expect(funds.value.availableCash).toMatch(/^\d+\.\d{2}$/);
  });

  it('a page that goes away releases its market subscriptions: a reload can watch as much again', async () => {
    // 200 watches a page never unwatches (a tab closed, a reload): 256 at most live in the core.
    const watchMany = () =>
      page.evaluate(async () => {
        const refused: string[] = [];
        for (let i = 0; i < 200; i++) {
          const r = await window.bridge.invoke('market.watch', {
            symbols: [{ symbol: 'SBIN', exchange: 'NSE' }],
            mode: 'ltp',
          });
          if (!r.ok) refused.push(r.error.message);
        }
        return refused;
      });
    expect(await watchMany()).toEqual([]);
    await page.reload();
    await page
      .getByTestId('connection')
      .and(page.locator('[data-state="connected"]'))
      .waitFor({ timeout: 20_000 });
    // Without the release, the first page's 200 would leave room for 56 of these.
    expect(await watchMany()).toEqual([]);
  });

  it('an order placed through the bridge comes back as a fill alert: an event, and a toast in the page', async () => {
    const alert = page.evaluate(
      () =>
        new Promise<AlertEvent>((resolve) => {
          const off = window.bridge.on('alerts.raised', (a) => {
            off();
            resolve(a);
          });
        }),
    );
    const placed = await page.evaluate(() =>
      window.bridge.invoke('orders.place', {
        symbol: 'SBIN',
        exchange: 'NSE',
        action: 'BUY',
        quantity: 1,
        pricetype: 'MARKET',
        product: 'MIS',
      }),
    );
    expect(placed.ok, JSON.stringify(placed)).toBe(true);
    const a = await alert;
    expect(a.kind).toBe('fill');
    if (placed.ok) expect(a.orderid).toBe(placed.value.orderid);
    const toast = page.getByTestId('alert').first();
    await toast.waitFor({ timeout: 5000 });
    expect(await toast.textContent()).toContain('SBIN');
    await page.setViewportSize({ width: 420, height: 720 });
    await page.screenshot({ path: join(SHOTS, 'web-desk-420-alert.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: join(SHOTS, 'web-desk-1280x720-alert.png') });
  });

  it('input that fails its schema and unknown channels get typed errors, and the order book is untouched', async () => {
    const before = await page.evaluate(() => window.bridge.invoke('books.orders'));
    const bad = await page.evaluate(() =>
      window.bridge.invoke('orders.place', {
        symbol: 'SBIN',
        exchange: 'NSE',
        action: 'BUY',
        quantity: -5,
        pricetype: 'MARKET',
        product: 'MIS',
      }),
    );
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    const withKey = await page.evaluate(() =>
      (window.bridge.invoke as (c: string, i: unknown) => Promise<unknown>)('books.funds', { apikey: 'x' }),
    );
    expect(withKey).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    const unknown = await page.evaluate(() =>
      (window.bridge.invoke as (c: string) => Promise<unknown>)('shell.exec'),
    );
    expect(unknown).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', message: 'unknown channel "shell.exec"' },
    });
    const after = await page.evaluate(() => window.bridge.invoke('books.orders'));
    expect(before.ok && after.ok).toBe(true);
    if (before.ok && after.ok) {
      expect(before.value.orders.length).toBeGreaterThan(0);
      expect(after.value.orders.length).toBe(before.value.orders.length);
    }
  });

  it("the journal export is saved under the data dir's exports/ (no save dialog in a page) and names its file", async () => {
    const r = await page.evaluate(() => window.bridge.invoke('journal.exportCsv'));
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok || r.value.kind !== 'saved') throw new Error(`not saved: ${JSON.stringify(r)}`);
    expect(r.value.path.startsWith(join(dataDir, 'exports') + sep)).toBe(true);
    expect(r.value.rows).toBeGreaterThan(0);
    const csv = readFileSync(r.value.path, 'utf8');
    expect(csv).toContain('SBIN');
    expect(csv).not.toMatch(KEY_SHAPE);
  });

  it('no frame the page received holds a key-shaped value, and the page logged no error (CSP, favicon, bridge)', () => {
    expect(framesToPage.length).toBeGreaterThan(0);
    expect(framesToPage.filter((f) => KEY_SHAPE.test(f))).toEqual([]);
    expect(pageProblems).toEqual([]);
  });
});

describe('the bridge socket refuses strangers', () => {
  it('with the session cookie, its own Origin and Host it opens', async () => {
    expect(await rawConnect({ Cookie: await sessionCookie(), Origin: web.origin })).toBe('open');
  });

  it('without the cookie: 401', async () => {
    expect(await rawConnect({ Origin: web.origin })).toBe(401);
  });

  it('with a foreign Origin (or none): 403', async () => {
    const cookie = await sessionCookie();
    expect(await rawConnect({ Cookie: cookie, Origin: 'http://evil.example' })).toBe(403);
    expect(await rawConnect({ Cookie: cookie, Origin: `http://localhost:${web.port}` })).toBe(403);
    expect(await rawConnect({ Cookie: cookie })).toBe(403);
  });

  it('with a foreign Host (DNS rebinding): 421, and the page itself too', async () => {
    const cookie = await sessionCookie();
    expect(await rawConnect({ Cookie: cookie, Origin: web.origin, Host: `rebind.example:${web.port}` })).toBe(
      421,
    );
    // fetch drops a Host header; node:http sends it as given.
    const status = await new Promise<number | undefined>((resolve, reject) =>
      httpGet(
        `${web.origin}/`,
        { headers: { Host: `rebind.example:${web.port}`, Cookie: cookie } },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      ).on('error', reject),
    );
    expect(status).toBe(421);
  });
});

describe('bad frames do not slow the desk', () => {
  it('1,000 invalid frames each get a typed error, and a valid call is answered as fast as before', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/bridge`, {
      headers: { Cookie: await sessionCookie(), Origin: web.origin },
    });
    await new Promise((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('error', reject);
    });
    const waiting = new Map<number | null, ((f: BridgeHostFrame) => void)[]>();
    const refusedWithoutId: BridgeHostFrame[] = [];
    ws.on('message', (data) => {
      const f = JSON.parse(String(data)) as BridgeHostFrame;
      if (f.type !== 'reply') return;
      const w = waiting.get(f.id)?.shift();
      if (w) w(f);
      else if (f.id === null) refusedWithoutId.push(f);
    });
    let nextId = 1;
    const call = (channel: string, input?: unknown): Promise<BridgeHostFrame> => {
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, [resolve]);
        ws.send(JSON.stringify({ id, channel, input }));
      });
    };
    const timed = async () => {
      const t = performance.now();
      const r = await call('settings.get');
      expect(r).toMatchObject({ type: 'reply', result: { ok: true } });
      return performance.now() - t;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

    const before: number[] = [];
    for (let i = 0; i < 30; i++) before.push(await timed());

    // Four kinds of garbage, 250 each: not JSON, a bad envelope, an unknown channel, input that fails its schema.
    const replies: Promise<BridgeHostFrame>[] = [];
    for (let i = 0; i < 250; i++) {
      ws.send('{not json');
      ws.send(JSON.stringify({ id: 'x', channel: 42 }));
      replies.push(call('no.such.channel'));
      replies.push(call('orders.place', { symbol: 'SBIN', quantity: 'lots' }));
    }
    const during = await timed();
    const answered = await Promise.all(replies);
    const after: number[] = [];
    for (let i = 0; i < 30; i++) after.push(await timed());
    // The refusals were sent before the answers to the later calls: they are all in.
    expect(refusedWithoutId).toHaveLength(500);
    ws.close();

    expect(answered).toHaveLength(500);
    for (const f of answered)
      expect(f).toMatchObject({ result: { ok: false, error: { kind: 'invalid_input' } } });
    expect(refusedWithoutId).toHaveLength(500);
    for (const f of refusedWithoutId)
      expect(f).toMatchObject({ id: null, result: { ok: false, error: { kind: 'invalid_input' } } });
    const figures = { beforeMedianMs: median(before), duringMs: during, afterMedianMs: median(after) };
    console.log('bridge latency (settings.get) around a 1,000-frame invalid burst:', JSON.stringify(figures));
    // Noisy shared machine: a ratio against this run's own baseline, with a 20 ms floor.
    expect(figures.afterMedianMs).toBeLessThan(Math.max(3 * figures.beforeMedianMs, 20));
    expect(figures.duringMs).toBeLessThan(1000);
    // The page's own connection was not disturbed.
    const funds = await page.evaluate(() => window.bridge.invoke('settings.get'));
    expect(funds.ok).toBe(true);
  });
});

describe('one OrderDesk per data dir and port', () => {
  it('a second host on the same data dir is refused with a sentence saying so, exit 1', async () => {
    const r = await runWebToExit(['--port', '0', '--data', dataDir, '--no-open', '--no-keychain']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`OrderDesk is already running on ${dataDir} (pid ${web.child.pid})`);
  });

  it('a host on a busy port names the port and exits 1', async () => {
    const other = mkdtempSync(join(tmpdir(), 'web-e2e-busy-'));
    try {
      const r = await runWebToExit([
        '--port',
        String(web.port),
        '--data',
        other,
        '--no-open',
        '--no-keychain',
      ]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Port ${web.port} on 127.0.0.1 is already in use`);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('when the host goes away', () => {
  it('the page says its link to the host is lost', async () => {
    expect(await web.stop()).toBe(0);
    await expect
      .poll(() => page.getByTestId('connection').getAttribute('data-state'), { timeout: 10_000 })
      .toBe('link_lost');
    expect(await page.getByTestId('connection').textContent()).toContain('host link lost');
    await page.screenshot({ path: join(SHOTS, 'web-desk-1280x720-link-lost.png') });
  });
});
