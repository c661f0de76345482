// The page's bridge script (src-main/web/page/bridge.js) run in a VM with a fake window and
// WebSocket: calls wait for the socket, never reject, and a lost link answers what is pending.
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BridgeApi } from '../../../src-main/contract/index.js';

const SCRIPT = readFileSync(new URL('../../../src-main/web/page/bridge.js', import.meta.url), 'utf8');

class FakeSocket {
  static readonly OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  private handlers = new Map<string, ((e: unknown) => void)[]>();
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  addEventListener(type: string, cb: (e: unknown) => void) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), cb]);
  }
  send(text: string) {
    this.sent.push(text);
  }
  fire(type: string, e: unknown = {}) {
    if (type === 'open') this.readyState = 1;
    if (type === 'close') this.readyState = 3;
    for (const cb of this.handlers.get(type) ?? []) cb(e);
  }
  reply(frame: unknown) {
    this.fire('message', { data: JSON.stringify(frame) });
  }
  lastCall(): { id: number; channel: string; input?: unknown } {
    return JSON.parse(this.sent.at(-1)!) as { id: number; channel: string; input?: unknown };
  }
}

class FakeCustomEvent {
  constructor(
    readonly type: string,
    readonly init: { detail: unknown },
  ) {}
}

function load(): { bridge: BridgeApi; errors: unknown[][]; links: unknown[] } {
  const links: unknown[] = [];
  const win: Record<string, unknown> = {
    location: { host: '127.0.0.1:7740' },
    dispatchEvent: (e: FakeCustomEvent) => links.push(`${e.type}:${String(e.init.detail)}`),
  };
  const errors: unknown[][] = [];
  runInNewContext(SCRIPT, {
    window: win,
    WebSocket: FakeSocket,
    CustomEvent: FakeCustomEvent,
    setTimeout,
    clearTimeout,
    Date,
    Promise,
    JSON,
    console: { error: (...a: unknown[]) => errors.push(a) },
  });
  return { bridge: win['bridge'] as BridgeApi, errors, links };
}

const socket = () => FakeSocket.all.at(-1)!;
const call = (b: BridgeApi, channel: string, input?: unknown) =>
  (b.invoke as (c: string, i?: unknown) => Promise<unknown>)(channel, input);

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('page bridge script', () => {
  it('connects to /bridge on its own host and defines a frozen, non-writable window.bridge', () => {
    const { bridge } = load();
    expect(socket().url).toBe('ws://127.0.0.1:7740/bridge');
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on']);
  });

  it('a call made before the socket opens is sent once it opens, and its reply resolves it', async () => {
    const { bridge } = load();
    const r = call(bridge, 'books.funds');
    await vi.advanceTimersByTimeAsync(0);
    expect(socket().sent).toEqual([]);
    socket().fire('open');
    await vi.advanceTimersByTimeAsync(0);
    expect(socket().lastCall()).toEqual({ id: 1, channel: 'books.funds' });
    socket().reply({ type: 'reply', id: 1, result: { ok: true, value: 42 } });
    await expect(r).resolves.toEqual({ ok: true, value: 42 });
  });

  it('with the link open, the frame leaves within the invoke call (before the page renders this turn)', async () => {
    const { bridge } = load();
    socket().fire('open');
    const r = call(bridge, 'orders.place', { symbol: 'SBIN' });
    expect(socket().lastCall()).toEqual({ id: 1, channel: 'orders.place', input: { symbol: 'SBIN' } });
    socket().reply({ type: 'reply', id: 1, result: { ok: true, value: { orderid: 'O1' } } });
    await expect(r).resolves.toEqual({ ok: true, value: { orderid: 'O1' } });
  });

  it('no socket within 10 s: the call resolves with a network error (never rejects)', async () => {
    const { bridge } = load();
    const r = call(bridge, 'books.funds');
    await vi.advanceTimersByTimeAsync(10_001);
    await expect(r).resolves.toMatchObject({ ok: false, error: { kind: 'network' } });
  });

  it('a lost link: pending reads fail network, pending order actions fail unknown_outcome, the page hears lost then open', async () => {
    const { bridge, links } = load();
    socket().fire('open');
    const read = call(bridge, 'books.orders');
    const place = call(bridge, 'orders.place', { symbol: 'SBIN' });
    const preview = call(bridge, 'orders.previewSmart', {});
    const status = call(bridge, 'orders.status', { orderid: '1' });
    await vi.advanceTimersByTimeAsync(0);
    const first = socket();
    first.fire('close');
    await expect(read).resolves.toMatchObject({ ok: false, error: { kind: 'network' } });
    await expect(place).resolves.toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
    await expect(preview).resolves.toMatchObject({ ok: false, error: { kind: 'network' } });
    await expect(status).resolves.toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(links).toEqual(['orderdesk:link:open', 'orderdesk:link:lost']);
    // It reconnects on its own after a pause.
    await vi.advanceTimersByTimeAsync(600);
    expect(socket()).not.toBe(first);
    // A refused reconnect (closed before opening) is not announced again; the next open is.
    socket().fire('close');
    await vi.advanceTimersByTimeAsync(1100);
    socket().fire('open');
    expect(links).toEqual(['orderdesk:link:open', 'orderdesk:link:lost', 'orderdesk:link:open']);
  });

  it('events reach their listeners until they stop listening; a throwing listener does not stop the others', () => {
    const { bridge, errors } = load();
    socket().fire('open');
    const heard: unknown[] = [];
    bridge.on('alerts.raised', () => {
      throw new Error('bad listener');
    });
    const off = bridge.on('alerts.raised', (a) => heard.push(a));
    socket().reply({ type: 'event', name: 'alerts.raised', payload: { id: 'a1' } });
    off();
    socket().reply({ type: 'event', name: 'alerts.raised', payload: { id: 'a2' } });
    expect(heard).toEqual([{ id: 'a1' }]);
    expect(errors).toHaveLength(2);
  });

  it('an input that cannot be sent (not JSON-able) is answered, not thrown', async () => {
    const { bridge } = load();
    socket().fire('open');
    await expect(call(bridge, 'settings.update', { n: 1n })).resolves.toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
  });
});
