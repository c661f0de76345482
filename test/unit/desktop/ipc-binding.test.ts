// The IPC binding with a fake ipcMain and fake windows: the sender is checked before the router sees
// anything, and every core event reaches the app's windows.
import { describe, expect, it, vi } from 'vitest';
import type { IpcResult } from '../../../src-main/contract/index.js';
import { IPC_EVENT, IPC_INVOKE } from '../../../src-main/shared/ipc-names.js';
import { REFUSED_SENDER, bindIpc } from '../../../src-main/desktop/ipc-binding.js';

type Invoke = (e: unknown, channel: unknown, input: unknown) => Promise<IpcResult<unknown>>;

function setup(routerInvoke?: (channel: string, input?: unknown) => Promise<IpcResult<unknown>>) {
  const handlers = new Map<string, Invoke>();
  const ipcMain = {
    handle: (ch: string, h: Invoke) => handlers.set(ch, h),
    removeHandler: (ch: string) => handlers.delete(ch),
  };
  let any: ((name: string, payload: unknown) => void) | undefined;
  const router = { invoke: vi.fn(routerInvoke ?? (async () => ({ ok: true as const, value: 'answer' }))) };
  const core = {
    router,
    events: {
      onAny: (l: (name: string, payload: unknown) => void) => {
        any = l;
        return () => (any = undefined);
      },
    },
  };
  const sent: unknown[][] = [];
  const window = {
    destroyed: false,
    send: (...a: unknown[]) => sent.push(a),
    isDestroyed: () => window.destroyed,
  };
  const other = { send: (...a: unknown[]) => sent.push(['other', ...a]), isDestroyed: () => true };
  const warn = vi.fn();
  const error = vi.fn();
  const answered: [string, IpcResult<unknown>][] = [];
  const binding = bindIpc({
    ipcMain: ipcMain as never,
    core: core as never,
    trust: { isAppContents: (id) => id === 1 },
    targets: () => [window, other] as never,
    logger: { warn, error },
    onAnswered: (c, r) => answered.push([c, r]),
  });
  const call = (e: unknown, channel: unknown, input?: unknown) =>
    handlers.get(IPC_INVOKE)!(e, channel, input);
  return {
    binding,
    handlers,
    router,
    sent,
    window,
    warn,
    error,
    answered,
    call,
    emit: (n: string, p: unknown) => any?.(n, p),
  };
}

const fromApp = {
  sender: { id: 1 },
  senderFrame: { url: 'app://bundle/index.html', parent: null },
};

describe('bindIpc', () => {
  it('hands a call from the app window to the router and answers its result', async () => {
    const t = setup();
    await expect(t.call(fromApp, 'books.funds', undefined)).resolves.toEqual({ ok: true, value: 'answer' });
    expect(t.router.invoke).toHaveBeenCalledWith('books.funds', undefined);
    expect(t.answered).toEqual([['books.funds', { ok: true, value: 'answer' }]]);
  });

  it('refuses any other sender before the router sees the call', async () => {
    const t = setup();
    const main = { url: 'app://bundle/index.html', parent: null };
    for (const e of [
      { sender: { id: 2 }, senderFrame: main },
      { sender: { id: 1 }, senderFrame: { url: 'app://bundle/index.html', parent: main } },
      { sender: { id: 1 }, senderFrame: { url: 'https://evil.example/', parent: null } },
      { sender: { id: 1 }, senderFrame: null },
    ])
      await expect(t.call(e, 'orders.cancelAll', {})).resolves.toEqual(REFUSED_SENDER);
    expect(t.router.invoke).not.toHaveBeenCalled();
    expect(t.warn).toHaveBeenCalledTimes(4);
    expect(t.warn).toHaveBeenCalledWith('IPC call from an untrusted sender refused', {
      channel: 'orders.cancelAll',
    });
  });

  it('answers a router that throws with a typed internal error', async () => {
    const t = setup(async () => {
      throw new Error('bug with key abc');
    });
    const r = await t.call(fromApp, 'books.funds');
    expect(r).toEqual({
      ok: false,
      error: { kind: 'internal', message: 'the call failed inside OrderDesk' },
    });
    expect(t.error).toHaveBeenCalledTimes(1);
  });

  it("sends every core event to the app's live windows", () => {
    const t = setup();
    t.emit('orders.filled', { seq: 1 });
    t.window.destroyed = true;
    t.emit('orders.filled', { seq: 2 });
    expect(t.sent).toEqual([[IPC_EVENT, 'orders.filled', { seq: 1 }]]);
  });

  it('replays the latest tray state to a page that loads after it was sent', () => {
    const t = setup();
    t.binding.publish('tray.state', { state: 'idle', mode: 'paper', tooltip: 'a' });
    t.binding.publish('tray.state', { state: 'alert', mode: 'paper', tooltip: 'b' });
    t.binding.publish('shell.command', { command: 'show-ticket' });
    t.sent.length = 0;
    t.binding.replay();
    expect(t.sent).toEqual([[IPC_EVENT, 'tray.state', { state: 'alert', mode: 'paper', tooltip: 'b' }]]);
  });

  it('dispose removes the handler and stops forwarding', () => {
    const t = setup();
    t.binding.dispose();
    expect(t.handlers.has(IPC_INVOKE)).toBe(false);
    t.emit('orders.filled', {});
    expect(t.sent).toEqual([]);
  });
});
