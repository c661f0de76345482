// Nothing phones home, and the API key never leaves main, end to end in browser mode.
// The host runs with a connection recorder (net-recorder.mjs, loaded by node --import): every TCP
// connection the host process opens (the core's gateway calls, its feed, the embedded paper gateway)
// is written down. A standalone paper gateway with a fresh random key is the configured gateway.
// Window A adds the profile and types the key in the Profiles dialog, then closes. Window B (a
// separate browser context: its own renderer process) goes through every tab, places orders and
// exports the journal. Then:
//   - every request either page made is to the host's own origin, every WebSocket the bridge's;
//   - every connection the host opened is loopback, to the configured or the embedded gateway;
//   - the key is nowhere in window B: its V8 heap (a CDP heap snapshot), globals, DOM, storage,
//     cookies, caches, nor in the data dir (settings, journal + WAL, watcher, paper, exports; where
//     the desktop app keeps its crash dumps, dataDir/electron) nor the host's logs.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  invoke,
  ltpOf,
  openDesk,
  priceAway,
  startPaper,
  tempDir,
  WIDE,
  type Desk,
  type PaperProcess,
} from '../support/desk-harness.js';
import { deriveFeedUrl } from '../../src-main/gateway/feed-url.js';
import { ROOT, SHOTS } from '../support/web-process.js';

const KEY = randomBytes(32).toString('hex');
const RECORDER = join(ROOT, 'test/support/net-recorder.mjs');
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

let desk: Desk;
let gateway: PaperProcess;
let gatewayDir: string;
let record: string;
let embeddedPort: number;
let b: { context: BrowserContext; page: Page };
const pageRequests: string[] = [];
const pageSockets: string[] = [];

/** Records every request and WebSocket a context's pages make. */
function watch(context: BrowserContext): void {
  context.on('request', (r) => pageRequests.push(r.url()));
  context.on('page', (p) => p.on('websocket', (ws) => pageSockets.push(ws.url())));
}

/** Every file under `dir`, recursively. */
function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** Clicks every tab the desk shows, again as new ones appear (a pane mounting its own tabs). */
async function visitEveryTab(page: Page): Promise<string[]> {
  const seen: string[] = [];
  for (let round = 0; round < 4; round++) {
    const tabs = page.getByRole('tab');
    const names: string[] = [];
    for (let i = 0; i < (await tabs.count()); i++) {
      const t = tabs.nth(i);
      if (!(await t.isVisible())) continue;
      const name = ((await t.getAttribute('aria-label')) ?? (await t.textContent()) ?? '').trim();
      if (name && !seen.includes(name)) names.push(name);
    }
    if (names.length === 0) break;
    for (const name of names) {
      const t = page.getByRole('tab').filter({ hasText: name }).first();
      if (await t.isVisible()) await t.click();
      else await page.getByRole('tab', { name }).first().click();
      seen.push(name);
      // Real time: the requests a pane makes once shown are what this test watches for.
      await page.waitForTimeout(300);
    }
  }
  return seen;
}

/** Polls `read` until it gives `want` (expect.poll works only inside a test). */
async function until<T>(read: () => Promise<T>, want: T, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < end) {
    last = await read();
    if (last === want) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`waited for ${String(want)}, last saw ${String(last)}`);
}

async function heapSnapshot(cdp: CDPSession): Promise<string> {
  const chunks: string[] = [];
  cdp.on('HeapProfiler.addHeapSnapshotChunk', (e) => chunks.push(e.chunk));
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  return chunks.join('');
}

beforeAll(async () => {
  gatewayDir = tempDir('security-gw');
  gateway = await startPaper(gatewayDir, KEY);
  record = join(tempDir('security-net'), 'connections.jsonl');
  // Only the host (started inside openDesk) inherits the recorder; Chromium ignores NODE_OPTIONS.
  const saved = { opts: process.env['NODE_OPTIONS'], rec: process.env['ORDERDESK_NET_RECORD'] };
  process.env['NODE_OPTIONS'] = `${saved.opts ?? ''} --import=${RECORDER}`.trim();
  process.env['ORDERDESK_NET_RECORD'] = record;
  try {
    desk = await openDesk('security');
  } finally {
    if (saved.opts === undefined) delete process.env['NODE_OPTIONS'];
    else process.env['NODE_OPTIONS'] = saved.opts;
    if (saved.rec === undefined) delete process.env['ORDERDESK_NET_RECORD'];
    else process.env['ORDERDESK_NET_RECORD'] = saved.rec;
  }
  embeddedPort = Number(new URL(await desk.paperUrl()).port);
  // Window A: the trader adds the gateway and pastes its key, as in the Profiles dialog.
  const a = desk.page;
  watch(a.context());
  await a.getByTestId('profile').click();
  await a.getByRole('dialog', { name: 'Profiles and API keys' }).waitFor();
  await a.getByTestId('profile-name').fill('Office gateway');
  await a.getByTestId('profile-url').fill(gateway.url);
  await a.getByTestId('profile-add').click();
  await until(() => a.getByTestId('mode').textContent(), 'LIVE');
  await a.getByTestId('key-input').fill(KEY);
  await a.getByTestId('key-input').press('Enter');
  await until(() => a.getByTestId('key-status').getAttribute('data-present'), 'true');
  await a.keyboard.press('Escape');
  await until(() => a.getByTestId('connection').getAttribute('data-state'), 'connected');
  // Window B gets the session cookie only; window A (and its renderer process) goes away.
  const cookies = await a.context().cookies();
  await a.context().close();
  const context = await desk.browser.newContext({ viewport: WIDE });
  watch(context);
  await context.addCookies(cookies);
  const page = await context.newPage();
  await page.goto(`${desk.web.origin}/`);
  await page
    .getByTestId('connection')
    .and(page.locator('[data-state="connected"]'))
    .waitFor({ timeout: 20_000 });
  b = { context, page };
}, 120_000);

afterAll(async () => {
  await desk?.stop();
  await gateway?.stop();
  if (gatewayDir) rmSync(gatewayDir, { recursive: true, force: true });
  if (record) rmSync(join(record, '..'), { recursive: true, force: true });
});

describe('browser mode: where the app connects, and where the key is', { timeout: 120_000 }, () => {
  it('goes through every pane and places orders on the configured gateway', async () => {
    const { page } = b;
    const visited = await visitEveryTab(page);
    for (const tab of ['Depth', 'Chain', 'Chart', 'Journal', 'Settings', 'Orders', 'Positions'])
      expect(
        visited.some((v) => v.includes(tab)),
        `${tab} in ${visited.join(', ')}`,
      ).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'security-panes-1280.png') });
    const ltp = await ltpOf(page, 'SBIN');
    const base = { exchange: 'NSE', symbol: 'SBIN', action: 'BUY', quantity: 1, product: 'MIS' };
    await invoke(page, 'orders.place', { ...base, pricetype: 'LIMIT', price: priceAway(ltp, -3) });
    await invoke(page, 'orders.place', { ...base, pricetype: 'MARKET' });
    await invoke(page, 'journal.exportCsv', {});
    // The books after the orders, read again through the panes.
    await visitEveryTab(page);
  });

  it("each page asked only its own host: HTTP to the host's origin, a WebSocket to its bridge", () => {
    expect(pageRequests.length).toBeGreaterThan(5);
    const foreign = pageRequests.filter(
      (u) => !u.startsWith('data:') && new URL(u).origin !== desk.web.origin,
    );
    expect(foreign).toEqual([]);
    expect(pageSockets.length).toBeGreaterThanOrEqual(1);
    expect([...new Set(pageSockets)]).toEqual([`ws://127.0.0.1:${desk.web.port}/bridge`]);
  });

  it('the host connected only to the configured gateway (its API and feed) and the embedded paper gateway', () => {
    const lines = readFileSync(record, 'utf8').trim().split('\n');
    const connections = lines.map((l) => JSON.parse(l) as { host?: string; port?: number; path?: string });
    const api = new URL(gateway.url);
    // The profile names no feed URL, so the core derives it from the base URL (ws://host:8765).
    const feed = new URL(deriveFeedUrl(gateway.url)!);
    const allowed = new Set([
      `${api.hostname}:${api.port}`,
      `${feed.hostname}:${feed.port}`,
      `127.0.0.1:${embeddedPort}`,
    ]);
    const to = connections.map((c) => (c.path ? `path:${c.path}` : `${c.host}:${c.port}`));
    // The recorder saw the gateway calls it exists to see (else the check below proves nothing).
    expect(to).toContain(`${api.hostname}:${api.port}`);
    expect(to).toContain(`127.0.0.1:${embeddedPort}`);
    // The host is the built one, as `npm run web` runs it: no TypeScript loader, so no local socket of
    // its own (tsx's IPC pipe to its parent was the one exception while tests ran the sources).
    const elsewhere = to.filter((t) => !allowed.has(t));
    expect(elsewhere).toEqual([]);
    for (const t of to.filter((x) => !x.startsWith('path:')))
      expect(LOOPBACK.has(t.slice(0, t.lastIndexOf(':'))), t).toBe(true);
  });

  it('the key is not in window B: heap, globals, DOM, storage, cookies, caches', async () => {
    const { page, context } = b;
    const cdp = await context.newCDPSession(page);
    // A control string of the key's shape made inside the page: the heap search must find it.
    const control = randomBytes(32).toString('hex');
    await page.evaluate((c) => {
      (globalThis as unknown as Record<string, unknown>)['__control'] = [c.slice(0, 32), c.slice(32)].join(
        '',
      );
    }, control);
    const heap = await heapSnapshot(cdp);
    expect(heap.length).toBeGreaterThan(1_000_000);
    expect(heap.includes(control)).toBe(true);
    expect(heap.includes(KEY)).toBe(false);
    const state = await page.evaluate(async () => {
      // This file has no DOM types: the few page APIs used, typed here.
      interface Store {
        length: number;
        key(i: number): string | null;
        getItem(k: string): string | null;
      }
      const g = globalThis as unknown as {
        document: {
          documentElement: { outerHTML: string };
          querySelectorAll(s: string): ArrayLike<{ value: string }>;
        };
        localStorage: Store;
        sessionStorage: Store;
        indexedDB: { databases(): Promise<{ name?: string }[]> };
        caches: { keys(): Promise<string[]> };
      };
      const seen = new Set<unknown>();
      const strings: string[] = [];
      // Globals and what they reach, a few levels down (the heap snapshot covers the rest).
      const walk = (v: unknown, depth: number): void => {
        if (typeof v === 'string') return void strings.push(v);
        if (v === null || typeof v !== 'object' || depth > 4 || seen.has(v) || seen.size > 50_000) return;
        seen.add(v);
        for (const k of Object.getOwnPropertyNames(v)) {
          try {
            walk((v as Record<string, unknown>)[k], depth + 1);
          } catch {
            // A getter that throws reveals nothing.
          }
        }
      };
      walk(globalThis, 0);
      const storage = (s: Store) =>
        Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i) ?? '')}`);
      return {
        globals: strings.join('\n'),
        dom: g.document.documentElement.outerHTML,
        inputs: Array.from(g.document.querySelectorAll('input, textarea, select')).map((e) => e.value),
        local: storage(g.localStorage),
        session: storage(g.sessionStorage),
        idb: (await g.indexedDB.databases()).map((d) => d.name),
        caches: await g.caches.keys(),
      };
    });
    // The walk reaches the page's globals (it finds the control string left there).
    expect(state.globals.includes(control)).toBe(true);
    for (const [where, text] of Object.entries(state))
      expect(JSON.stringify(text).includes(KEY), where).toBe(false);
    // The desk keeps nothing in IndexedDB or CacheStorage (so there is nothing there to search).
    expect(state.idb).toEqual([]);
    expect(state.caches).toEqual([]);
    const cookies = await context.cookies();
    expect(JSON.stringify(cookies).includes(KEY)).toBe(false);
  });

  it("the key is not in the data dir (journal, WAL, settings, exports, crash dumps' dir) nor the logs", () => {
    const all = files(desk.dataDir);
    expect(all.some((f) => f.endsWith('journal.db'))).toBe(true);
    expect(all.some((f) => f.includes(`${join('exports', '')}`) && f.endsWith('.csv'))).toBe(true);
    const needle = Buffer.from(KEY);
    // The search reads what was written: the orders' symbol is in the journal files.
    expect(all.some((f) => f.includes('journal.db') && readFileSync(f).includes(Buffer.from('SBIN')))).toBe(
      true,
    );
    for (const f of all) expect(readFileSync(f).includes(needle), f).toBe(false);
    const logs = `${desk.web.stdout.join('\n')}\n${desk.web.stderr()}`;
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.includes(KEY)).toBe(false);
  });
});
