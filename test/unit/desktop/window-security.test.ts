// The window's security baseline and the deny-by-default guards, as pure functions over fakes.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { APP_SCHEME_PRIVILEGES, isAppUrl } from '../../../src-main/desktop/app-url.js';
import { guardContents, guardSession } from '../../../src-main/desktop/web-guards.js';
import { EXTERNAL_LINKS } from '../../../src-main/desktop/external-links.js';
import { TRADINGVIEW_URL } from '../../../src-renderer/src/lib/external-links.js';
import { windowOptions } from '../../../src-main/desktop/window-options.js';

const logs: string[] = [];
const logger = { warn: (m: string) => logs.push(m) };

describe('windowOptions', () => {
  const base = { preload: '/app/out/preload/preload.cjs', alwaysOnTop: false, devTools: false };

  it('sandboxes the page, isolates the preload and gives it no Node', () => {
    const w = windowOptions(base).webPreferences;
    expect(w).toMatchObject({
      preload: '/app/out/preload/preload.cjs',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      devTools: false,
    });
  });

  it('keeps the baseline whatever the other options are', () => {
    const w = windowOptions({
      ...base,
      devTools: true,
      alwaysOnTop: true,
      bounds: { x: 1, y: 2, width: 500, height: 700 },
    });
    expect(w.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(w).toMatchObject({ x: 1, y: 2, width: 500, height: 700, alwaysOnTop: true, show: false });
    expect(w.webPreferences?.devTools).toBe(true);
  });

  it('opens at the default size, centred, when no bounds are remembered', () => {
    const w = windowOptions(base);
    expect(w).toMatchObject({ width: 420, height: 640, show: false, alwaysOnTop: false });
    expect(w.x).toBeUndefined();
  });
});

describe('app:// scheme', () => {
  it('is standard and secure, and never bypasses CSP or runs service workers', () => {
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({
      standard: true,
      secure: true,
      bypassCSP: false,
      allowServiceWorkers: false,
    });
  });
  it('recognises only the bundle host', () => {
    expect(isAppUrl('app://bundle/index.html')).toBe(true);
    expect(isAppUrl('app://bundle/')).toBe(true);
    expect(isAppUrl('app://other/index.html')).toBe(false);
    expect(isAppUrl('app://bundle.evil/index.html')).toBe(false);
    expect(isAppUrl('app://user:pw@bundle/index.html')).toBe(false);
    expect(isAppUrl('file:///etc/passwd')).toBe(false);
    expect(isAppUrl('https://bundle/')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });
});

class FakeContents extends EventEmitter {
  openHandler?: (d: { url: string }) => { action: string };
  setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
    this.openHandler = h;
  }
}

function preventable(url?: string) {
  const e = { url, prevented: false, preventDefault: () => (e.prevented = true) };
  return e;
}

describe('guardContents', () => {
  it("lists the renderer's attribution link", () => {
    expect(EXTERNAL_LINKS.has(TRADINGVIEW_URL)).toBe(true);
  });

  it('prevents every navigation, redirect and webview, and denies new windows', () => {
    const c = new FakeContents();
    guardContents(c as never, logger);
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
      const e = preventable('https://evil.example/phish?token=1');
      c.emit(name, e);
      expect(e.prevented, name).toBe(true);
    }
    expect(c.openHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
  });

  it('hands a new-window request for a listed address (the chart attribution) to the system browser, no other', () => {
    const opened: string[] = [];
    const c = new FakeContents();
    guardContents(c as never, logger, (url) => opened.push(url));
    expect(c.openHandler?.({ url: TRADINGVIEW_URL })).toEqual({ action: 'deny' });
    for (const url of [
      'https://evil.example/',
      'https://www.tradingview.com/x',
      'http://www.tradingview.com/',
    ])
      expect(c.openHandler?.({ url })).toEqual({ action: 'deny' });
    expect(opened).toEqual([TRADINGVIEW_URL]);
    // Without the opener (a host that has none) the listed address is only denied.
    const bare = new FakeContents();
    guardContents(bare as never, logger);
    expect(bare.openHandler?.({ url: TRADINGVIEW_URL })).toEqual({ action: 'deny' });
  });

  it('logs only the origin of what was tried', () => {
    logs.length = 0;
    const fields: unknown[] = [];
    const c = new FakeContents();
    guardContents(c as never, { warn: (m: string, f?: unknown) => (logs.push(m), fields.push(f)) });
    c.emit('will-navigate', preventable('https://evil.example/path?secret=1'));
    expect(logs).toEqual(['navigation denied']);
    expect(fields).toEqual([{ origin: 'https://evil.example' }]);
  });
});

describe('guardSession', () => {
  it('denies every permission request and check', () => {
    let request: ((wc: unknown, p: string, cb: (g: boolean) => void) => void) | undefined;
    let check: (() => boolean) | undefined;
    let device: (() => boolean) | undefined;
    guardSession(
      {
        setPermissionRequestHandler: (h: typeof request) => (request = h),
        setPermissionCheckHandler: (h: typeof check) => (check = h),
        setDevicePermissionHandler: (h: typeof device) => (device = h),
      } as never,
      logger,
    );
    const granted: boolean[] = [];
    for (const p of ['notifications', 'media', 'geolocation', 'clipboard-read'])
      request?.({}, p, (g) => granted.push(g));
    expect(granted).toEqual([false, false, false, false]);
    expect(check?.()).toBe(false);
    expect(device?.()).toBe(false);
  });
});
