// The desktop shell inside a real Electron (npm run test:electron; not run where there is no binary):
// what the unit tests can only check with fakes — the sandboxed CommonJS preload, contextBridge, the
// app:// protocol and its CSP, navigation guards, close-to-tray, the tray (its icon, tooltip and menu
// follow the core's state) and the tray state reaching the page, OS notifications for a fill, the
// single-instance lock, and the key store inside Electron's Node. Where a test must see what main
// handed to Electron (the tray's icon and menu, a notification), it wraps that Electron class's
// prototype from inside the running app (app.evaluate) and records the calls in `globalThis.__od`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeApi } from '../../src-main/contract/index.js';

const ROOT = join(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'out/main/index.js');
const binary = process.env['ELECTRON_BINARY'];
// Root (a container) cannot start Chromium's setuid sandbox; the JS-level sandbox still applies.
const chromiumArgs = process.getuid?.() === 0 ? ['--no-sandbox'] : [];

// The page's globals, as seen by functions page.evaluate runs in the page (this file has no DOM types).
declare const window: { bridge: BridgeApi; open(url: string): unknown };
declare const location: { href: string };
/** The bridge without the channel typing, to try names the contract does not have. */
type LooseBridge = {
  invoke(channel: string, input?: unknown): Promise<{ ok: boolean; error?: { kind: string } }>;
};

describe.skipIf(!binary)('desktop shell in Electron', () => {
  let dataDir: string;
  let app: ElectronApplication;
  let page: Page;
  const env = () => ({ ...process.env, ORDERDESK_DATA_DIR: dataDir }) as Record<string, string>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'od-electron-'));
    app = await _electron.launch({
      executablePath: binary as string,
      args: [...chromiumArgs, MAIN],
      cwd: ROOT,
      env: env(),
    });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the renderer from app://bundle, not file://', async () => {
    expect(page.url()).toMatch(/^app:\/\/bundle\//);
  });

  it('the preload gives the page window.bridge and nothing else', async () => {
    const seen = await page.evaluate(() => ({
      bridge: Object.keys(window.bridge).sort(),
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
      ipcRenderer: typeof (globalThis as { ipcRenderer?: unknown }).ipcRenderer,
    }));
    expect(seen).toEqual({
      bridge: ['invoke', 'on'],
      require: 'undefined',
      process: 'undefined',
      ipcRenderer: 'undefined',
    });
  });

  it('calls reach the core through the sender check, and unknown channels are refused', async () => {
    const settings = await page.evaluate(() => window.bridge.invoke('settings.get'));
    expect(settings.ok).toBe(true);
    const unknown = await page.evaluate(() =>
      (window.bridge as unknown as LooseBridge).invoke('shell.openExternal', { url: 'x' }),
    );
    expect(unknown).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
  });

  it('app:// sends the CSP header and refuses paths outside the bundle', async () => {
    const answers = await app.evaluate(async ({ net }) => {
      const index = await net.fetch('app://bundle/index.html');
      const escape = await net.fetch('app://bundle/assets%2F..%2F..%2F..%2Fpackage.json');
      return {
        status: index.status,
        csp: index.headers.get('content-security-policy'),
        escape: escape.status,
      };
    });
    expect(answers.status).toBe(200);
    expect(answers.csp).toContain("connect-src 'none'");
    expect(answers.escape).toBeGreaterThanOrEqual(400);
  });

  it('the page cannot reach the network, navigate away or open windows', async () => {
    const fetched = await page.evaluate(async () => {
      try {
        await fetch('https://example.com/');
        return 'fetched';
      } catch {
        return 'blocked';
      }
    });
    expect(fetched).toBe('blocked');
    expect(await page.evaluate(() => window.open('https://example.com/') === null)).toBe(true);
    await page.evaluate(() => {
      location.href = 'https://example.com/';
    });
    await page.waitForTimeout(500);
    expect(page.url()).toMatch(/^app:\/\/bundle\//);
  });

  it('the tray state reaches the page (replayed after a reload)', async () => {
    await page.reload();
    const state = await page.evaluate(
      () => new Promise((resolve) => window.bridge.on('tray.state', (s) => resolve(s))),
    );
    expect(state).toMatchObject({ mode: 'paper', tooltip: expect.stringMatching(/^OrderDesk · /) });
  });

  it('the tray follows the core: icon, tooltip and menu change when alerts are paused', async () => {
    await app.evaluate(({ Tray }) => {
      const seen = { images: [] as string[], tooltips: [] as string[], menus: [] as string[][] };
      (globalThis as { __od?: unknown }).__od = {
        ...((globalThis as { __od?: object }).__od ?? {}),
        tray: seen,
      };
      const proto = Tray.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
      for (const [name, record] of [
        ['setImage', (a: unknown) => seen.images.push(String(a))],
        ['setToolTip', (a: unknown) => seen.tooltips.push(String(a))],
        [
          'setContextMenu',
          (m: unknown) =>
            seen.menus.push(((m as { items?: { label: string }[] } | null)?.items ?? []).map((i) => i.label)),
        ],
      ] as const) {
        const original = proto[name]!;
        proto[name] = function (this: unknown, ...args: unknown[]) {
          record(args[0]);
          return original.apply(this, args);
        };
      }
    });
    const paused = await page.evaluate(() => window.bridge.invoke('alerts.pause', { paused: true }));
    expect(paused.ok).toBe(true);
    type TraySeen = { images: string[]; tooltips: string[]; menus: string[][] };
    const seen = () => app.evaluate(() => (globalThis as unknown as { __od: { tray: TraySeen } }).__od.tray);
    await expect
      .poll(async () => (await seen()).images.at(-1) ?? '', { timeout: 10_000 })
      .toMatch(/paused\.png$/);
    const tray = await seen();
    expect(tray.tooltips.at(-1)).toMatch(/^OrderDesk · .*alerts paused/);
    expect(tray.menus.length).toBeGreaterThan(0);
    expect(tray.menus.at(-1)?.length).toBeGreaterThan(0);
    await page.evaluate(() => window.bridge.invoke('alerts.pause', { paused: false }));
    await expect
      .poll(async () => (await seen()).images.at(-1) ?? '', { timeout: 10_000 })
      .toMatch(/paper\.png$/);
  });

  it('a fill on paper raises an OS notification naming the order', async () => {
    await app.evaluate(({ Notification }) => {
      const shown: { title: string; body: string }[] = [];
      (globalThis as { __od?: unknown }).__od = { ...((globalThis as { __od?: object }).__od ?? {}), shown };
      // The notifier's wiring is under test, not the desktop's notification service (xvfb has none).
      Notification.isSupported = () => true;
      const original = Notification.prototype.show;
      Notification.prototype.show = function (this: Electron.Notification) {
        shown.push({ title: this.title, body: this.body });
        try {
          original.call(this);
        } catch {
          // no notification service: recorded all the same
        }
      };
    });
    const placed = await page.evaluate(() =>
      window.bridge.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 1,
        pricetype: 'MARKET',
        product: 'MIS',
      }),
    );
    expect(placed.ok, JSON.stringify(placed)).toBe(true);
    const orderid = placed.ok ? placed.value.orderid : '';
    const shown = () =>
      app.evaluate(
        () => (globalThis as unknown as { __od: { shown: { title: string; body: string }[] } }).__od.shown,
      );
    await expect
      .poll(async () => (await shown()).some((n) => /SBIN/.test(`${n.title} ${n.body}`)), { timeout: 30_000 })
      .toBe(true);
    expect(orderid).not.toBe('');
  });

  it('closing the window hides it to the tray', async () => {
    const after = await app.evaluate(({ BrowserWindow }) => {
      const w = BrowserWindow.getAllWindows()[0];
      w?.close();
      return { destroyed: w?.isDestroyed(), visible: w?.isVisible() };
    });
    expect(after).toEqual({ destroyed: false, visible: false });
  });

  it('a second launch exits and brings the first window forward', async () => {
    const second = spawn(binary as string, [...chromiumArgs, MAIN], {
      cwd: ROOT,
      env: env(),
      stdio: 'ignore',
    });
    const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    expect(code).toBe(0);
    await expect
      .poll(() => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.isVisible()), {
        timeout: 10_000,
      })
      .toBe(true);
  });

  it('keeps an API key in a persistent store inside Electron, never handing it back', async () => {
    const key = 'e'.repeat(64);
    const set = await page.evaluate(
      (k) => window.bridge.invoke('apiKey.set', { key: k, profileId: 'paper' }),
      key,
    );
    expect(set.ok).toBe(true);
    expect(JSON.stringify(set)).not.toContain(key);
    const status = (await page.evaluate(() =>
      window.bridge.invoke('apiKey.status', { profileId: 'paper' }),
    )) as {
      value?: { backend?: string; persistent?: boolean };
    };
    // KEYCHAIN_IT=1: run where a keyring is unlocked (scripts/with-keyring.sh), so keytar or safeStorage holds it.
    if (process.env['KEYCHAIN_IT'] === '1') expect(status.value?.persistent).toBe(true);
    else expect(status.value).toBeDefined();
  });
});
