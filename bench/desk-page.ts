// The desk bench's page side (bench/desk.bench.ts): the ticket set up for Enter-to-send, a watch on
// the bridge socket installed before the page's scripts, and the orders it times from a keystroke,
// through the ticket, the bridge alone or a bare keydown listener.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { invoke, type Desk, type PaperProcess } from '../test/support/desk-harness.js';
import { useBenchGateway } from './bench-gateway.js';

// The page's globals, as seen by functions page.evaluate runs there (this file has no DOM types).
declare const window: {
  addEventListener(
    type: string,
    cb: (e: { key: string; timeStamp: number; preventDefault(): void; stopPropagation(): void }) => void,
    options: { capture: boolean },
  ): void;
  __bench?: {
    t0: number;
    routeMs: number;
    ack?: Promise<Ack>;
    keyed?: Promise<number>;
    keyedDone?: (ms: number) => void;
  };
  bridge: { invoke(channel: string, input?: unknown): Promise<{ ok: boolean; error?: { message: string } }> };
  __socket: { sent: [number, string][]; received: [number, string][] };
};
declare const document: { querySelector(sel: string): { textContent: string | null } | null };
declare const performance: { now(): number };
declare function requestAnimationFrame(cb: () => void): void;
declare class MutationObserver {
  constructor(cb: () => void);
  observe(target: unknown, options: { subtree: boolean; childList: boolean; characterData: boolean }): void;
  disconnect(): void;
}

interface Ack {
  id: string;
  /** Keystroke (the event's own time) → the DOM holds the acknowledgement. */
  domMs: number;
  /** Keystroke → this bench's listener: Chromium's input routing, then the desk's window listeners. */
  routeMs: number;
  /** … → the next animation frame after it (painted). */
  frameMs: number;
  /** Keystroke → the order's frame handed to the bridge socket (undefined: not seen). */
  sentMs?: number;
  /** Keystroke → its answer's frame off the socket. */
  answeredMs?: number;
}

/**
 * Wraps the page's WebSocket before its scripts run: when each frame went out and came in (page
 * clock), with its first characters, to find the order's frame and its answer.
 */
export const SOCKET_WATCH = `(() => {
  const Base = window.WebSocket;
  window.__socket = { sent: [], received: [] };
  window.WebSocket = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) =>
        window.__socket.received.push([performance.now(), String(e.data).slice(0, 80)]));
    }
    send(data) {
      window.__socket.sent.push([performance.now(), String(data).slice(0, 80)]);
      return super.send(data);
    }
  };
})();`;

/** Arms the page: the keystroke's time, and a promise for the next new order's line in the ticket. */
async function armAck(page: Page, previous: string): Promise<void> {
  // No named functions inside: tsx's keepNames would wrap them in a helper the page does not have.
  await page.evaluate((prev) => {
    const bench = window.__bench!;
    window.__socket.sent.length = 0;
    window.__socket.received.length = 0;
    bench.ack = new Promise<Ack>((resolve, reject) => {
      const form = document.querySelector('form[aria-label="Order ticket"]');
      if (!form) return reject(new Error('no ticket on the page'));
      const obs = new MutationObserver(() => {
        // The line follows the order's state: "Placed" until the book has it, then its state.
        const m =
          /(?:Placed|Open|Trigger pending|Complete|Cancelled|Rejected)(?: · \S+ of \S+ filled)? · order (\S+)/.exec(
            form.textContent ?? '',
          );
        if (!m || m[1] === prev) return;
        const dom = performance.now();
        obs.disconnect();
        clearTimeout(timer);
        // The order's frame (the first orders.place out) and the first successful answer after it.
        const out = window.__socket.sent.find((f) => f[1].includes('"orders.place"'));
        const back = out
          ? window.__socket.received.find((f) => f[0] >= out[0] && f[1].startsWith('{"type":"reply"'))
          : undefined;
        requestAnimationFrame(() =>
          resolve({
            id: m[1]!,
            domMs: dom - bench.t0,
            routeMs: bench.routeMs,
            frameMs: performance.now() - bench.t0,
            ...(out ? { sentMs: out[0] - bench.t0 } : {}),
            ...(back ? { answeredMs: back[0] - bench.t0 } : {}),
          }),
        );
      });
      const timer = setTimeout(() => {
        obs.disconnect();
        reject(new Error(`no acknowledgement within 10 s: ${form.textContent}`));
      }, 10_000);
      obs.observe(form, { subtree: true, childList: true, characterData: true });
    });
  }, previous);
}

export async function deskOrder(page: Page, quantity: string, previous: string): Promise<Ack> {
  const qty = page.getByLabel('Qty', { exact: true });
  // A different quantity each time: the ticket never sends the same order twice as it stands.
  await qty.fill(quantity);
  await qty.focus();
  // A trader's Enter comes a beat after the last digit: the ticket has redrawn by then. Pressed at
  // once, the key would wait in Chromium's input queue behind that redraw, which is the harness's.
  await sleep(50);
  await armAck(page, previous);
  // Waiting for the answer is asked for before the key goes down, and the key comes up after it, as a
  // trader's finger does (a keystroke lasts 50–150 ms): Playwright's own traffic (press's keyup, the
  // wait's evaluate) would otherwise share this machine's two cores with the order in flight.
  const ack = page.evaluate(() => window.__bench!.ack!);
  await page.keyboard.down('Enter');
  const result = await ack;
  await page.keyboard.up('Enter');
  return result;
}

/** The same order through the page's bridge without the ticket: the core and transport alone. */
export async function bridgeOrder(page: Page, quantity: number): Promise<number> {
  const r = await page.evaluate(async (q) => {
    const t0 = performance.now();
    const res = await window.bridge.invoke('orders.place', {
      symbol: 'SBIN',
      exchange: 'NSE',
      action: 'SELL',
      quantity: q,
      pricetype: 'MARKET',
      product: 'MIS',
    });
    return { ms: performance.now() - t0, ok: res.ok, message: res.error?.message };
  }, quantity);
  if (!r.ok) throw new Error(`orders.place through the bridge refused: ${r.message}`);
  return r.ms;
}

/**
 * The same call fired by a keystroke with no ticket in the way: a Pause keydown listener (setUp) sends
 * orders.place and times it from the keydown. Against the ticket's figure it is the ticket's own cost;
 * against the bridge-only figure, the keystroke's (Chromium's input path, in flight with the order).
 */
export async function keyedOrder(page: Page): Promise<number> {
  await page.evaluate(() => {
    const bench = window.__bench!;
    bench.keyed = new Promise<number>((resolve) => (bench.keyedDone = resolve));
  });
  const done = page.evaluate(() => window.__bench!.keyed!);
  await page.keyboard.down('Pause');
  const ms = await done;
  await page.keyboard.up('Pause');
  return ms;
}

/** A channel that touches no gateway (settings.get): the bridge's own round trip. */
export async function bridgeRoundTrip(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const t0 = performance.now();
    await window.bridge.invoke('settings.get');
    return performance.now() - t0;
  });
}

export async function setUp(desk: Desk, gateway: PaperProcess, key: string): Promise<void> {
  const { page } = desk;
  await useBenchGateway(page, gateway.url, key);
  // No duplicate hold-back between orders (the core reads its limits per order).
  await invoke(page, 'settings.update', { risk: { duplicateWindowMs: 0 } });
  await page.locator('body').press('Escape');
  await page.keyboard.press('/');
  await page.keyboard.type('sbin');
  await page.getByRole('listbox', { name: 'Matching instruments' }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await page.keyboard.press('F1');
  // Straight to the gateway on Enter: the ticket's own switch for the new-order confirmation.
  await page.getByRole('checkbox', { name: 'New order' }).uncheck();
  await page
    .getByRole('form', { name: 'Order ticket' })
    .getByRole('radio', { name: 'Market', exact: true })
    .check();
  await page.evaluate(() => {
    window.__bench = { t0: 0, routeMs: 0 };
    // The keystroke's time is the event's own (when the browser made it, on the page's clock): the
    // desk's window listeners, added at load, run before this one, and their time is the desk's.
    window.addEventListener(
      'keydown',
      (e) => {
        if (e.key !== 'Enter') return;
        window.__bench!.t0 = e.timeStamp;
        window.__bench!.routeMs = performance.now() - e.timeStamp;
      },
      { capture: true },
    );
    let quantity = 5;
    window.addEventListener(
      'keydown',
      (e) => {
        if (e.key !== 'Pause') return;
        e.preventDefault();
        e.stopPropagation();
        const t0 = e.timeStamp;
        // 5 and 6 alternate: the duplicate guard never sees the same order twice in a row.
        quantity = quantity === 5 ? 6 : 5;
        void window.bridge
          .invoke('orders.place', {
            symbol: 'SBIN',
            exchange: 'NSE',
            action: 'SELL',
            quantity,
            pricetype: 'MARKET',
            product: 'MIS',
          })
          .then(() => window.__bench!.keyedDone?.(performance.now() - t0));
      },
      { capture: true },
    );
  });
}
