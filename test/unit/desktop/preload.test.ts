// The preload with a fake `electron`: exactly one thing reaches the page (window.bridge), only
// allowlisted names pass, and the IpcRendererEvent never reaches a listener.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT, IPC_INVOKE } from '../../../src-main/shared/ipc-names.js';

type Handler = (event: unknown, ...args: unknown[]) => void;

const fake = vi.hoisted(() => {
  const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  return {
    exposed: [] as [string, unknown][],
    listeners,
    invoke: vi.fn<(channel: string, ...args: unknown[]) => Promise<unknown>>(),
  };
});

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => fake.exposed.push([key, api]) },
  ipcRenderer: {
    invoke: fake.invoke,
    on(channel: string, l: Handler) {
      let set = fake.listeners.get(channel);
      if (!set) fake.listeners.set(channel, (set = new Set()));
      set.add(l);
    },
    removeListener(channel: string, l: Handler) {
      fake.listeners.get(channel)?.delete(l);
    },
  },
}));

const { createBridge } = await import('../../../src-main/preload.js');
type Bridge = ReturnType<typeof createBridge>;

/** What main sends: the IpcRendererEvent first (it carries `sender`, i.e. ipcRenderer). */
function fromMain(name: string, payload: unknown): void {
  const event = { sender: { invoke: fake.invoke }, senderId: 0 };
  for (const l of [...(fake.listeners.get(IPC_EVENT) ?? [])]) l(event, name, payload);
}

describe('preload', () => {
  it('exposes window.bridge and nothing else', () => {
    expect(fake.exposed).toHaveLength(1);
    const [key, api] = fake.exposed[0] as [string, object];
    expect(key).toBe('bridge');
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    expect(Object.isFrozen(api)).toBe(true);
  });
});

describe('createBridge', () => {
  let bridge: Bridge;
  const ipc = {
    invoke: (...args: unknown[]) => fake.invoke(...(args as [string, ...unknown[]])),
    on: (channel: string, l: Handler) => {
      let set = fake.listeners.get(channel);
      if (!set) fake.listeners.set(channel, (set = new Set()));
      set.add(l);
    },
    removeListener: (channel: string, l: Handler) => fake.listeners.get(channel)?.delete(l),
  };
  const listenerErrors: [string, unknown][] = [];

  beforeEach(() => {
    fake.listeners.clear();
    fake.invoke.mockReset();
    listenerErrors.length = 0;
    bridge = createBridge(ipc as never, (event, err) => listenerErrors.push([event, err]));
  });

  it('sends an allowlisted channel over the one invoke message', async () => {
    fake.invoke.mockResolvedValue({ ok: true, value: { status: 'success' } });
    const result = await bridge.invoke('books.funds');
    expect(result).toEqual({ ok: true, value: { status: 'success' } });
    expect(fake.invoke).toHaveBeenCalledWith(IPC_INVOKE, 'books.funds', undefined);
  });

  it('refuses a channel the contract does not name, without sending anything', async () => {
    for (const channel of ['shell.openExternal', 'bridge:invoke', '', 42 as unknown as string]) {
      const result = await bridge.invoke(channel as 'books.funds');
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.kind).toBe('invalid_input');
    }
    expect(fake.invoke).not.toHaveBeenCalled();
  });

  it('answers a failed IPC round trip as a typed value, never a rejection', async () => {
    fake.invoke.mockRejectedValue(new Error("Error invoking remote method 'bridge:invoke'"));
    const result = await bridge.invoke('books.funds');
    expect(result).toEqual({
      ok: false,
      error: { kind: 'internal', message: 'books.funds: the main process did not answer' },
    });
  });

  it('hands listeners the payload only, never the IpcRendererEvent', () => {
    const seen: unknown[][] = [];
    bridge.on('tray.state', (...args: unknown[]) => seen.push(args));
    const payload = { state: 'idle', mode: 'paper', tooltip: 'OrderDesk · Paper' };
    fromMain('tray.state', payload);
    expect(seen).toEqual([[payload]]);
  });

  it('delivers an event to its listeners only, and ignores names outside the allowlist', () => {
    const tray: unknown[] = [];
    const alerts: unknown[] = [];
    bridge.on('tray.state', (p) => tray.push(p));
    bridge.on('alerts.state', (p) => alerts.push(p));
    fromMain('alerts.state', { paused: true });
    fromMain('not.an.event', { x: 1 });
    expect(tray).toEqual([]);
    expect(alerts).toEqual([{ paused: true }]);
  });

  it('off removes exactly its own registration, and the IPC listener goes with the last one', () => {
    const got: string[] = [];
    const cb = () => got.push('x');
    const off1 = bridge.on('tray.state', cb);
    const off2 = bridge.on('tray.state', cb);
    expect(fake.listeners.get(IPC_EVENT)?.size).toBe(1);
    off1();
    fromMain('tray.state', {});
    expect(got).toEqual(['x']);
    off2();
    fromMain('tray.state', {});
    expect(got).toEqual(['x']);
    expect(fake.listeners.get(IPC_EVENT)?.size ?? 0).toBe(0);
  });

  it('refuses to listen to an unknown event or with a non-function', () => {
    expect(() => bridge.on('ipc.raw' as 'tray.state', () => undefined)).toThrow(/unknown event/);
    expect(() => bridge.on('tray.state', 'nope' as never)).toThrow(/must be a function/);
  });

  it('a listener that throws does not stop the others', () => {
    const got: unknown[] = [];
    bridge.on('tray.state', () => {
      throw new Error('page bug');
    });
    bridge.on('tray.state', (p) => got.push(p));
    fromMain('tray.state', { n: 1 });
    expect(got).toEqual([{ n: 1 }]);
    expect(listenerErrors.map(([e]) => e)).toEqual(['tray.state']);
  });
});
