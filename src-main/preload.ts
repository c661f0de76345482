// The renderer's only door to the main process: window.bridge = { invoke, on }, allowlisted from the
// contract's channel and event NAMES (names.ts: plain strings, so this sandboxed CommonJS bundle holds
// no zod). Nothing else reaches the page: no ipcRenderer, no process, and the IpcRendererEvent (it
// carries `sender`, i.e. ipcRenderer itself) is stripped before a listener is called.
import { contextBridge, ipcRenderer, type IpcRenderer } from 'electron';
import type { BridgeApi } from './contract/ipc/bridge.js';
import { CHANNEL_NAME_LIST, EVENT_NAME_LIST, IPC_EVENT, IPC_INVOKE } from './shared/ipc-names.js';
import type { IpcResult } from './contract/ipc/result.js';

export type BridgeIpc = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;

const CHANNELS: ReadonlySet<string> = new Set(CHANNEL_NAME_LIST);
const EVENTS: ReadonlySet<string> = new Set(EVENT_NAME_LIST);

function refusal(kind: 'invalid_input' | 'internal', message: string): IpcResult<never> {
  return { ok: false, error: { kind, message } };
}

/** Reports a page callback's error without letting it stop the other listeners. */
export type ListenerErrorSink = (event: string, err: unknown) => void;

export function createBridge(
  ipc: BridgeIpc,
  onListenerError: ListenerErrorSink = (event, err) =>
    console.error(`bridge listener for ${event} failed`, err),
): BridgeApi {
  const listeners = new Map<string, Set<{ cb: (payload: unknown) => void }>>();
  let attached = false;

  const dispatch = (_event: unknown, name: unknown, payload: unknown) => {
    if (typeof name !== 'string' || !EVENTS.has(name)) return;
    for (const entry of [...(listeners.get(name) ?? [])]) {
      try {
        entry.cb(payload);
      } catch (err) {
        onListenerError(name, err);
      }
    }
  };

  function invoke(channel: string, input?: unknown): Promise<IpcResult<unknown>> {
    if (typeof channel !== 'string' || !CHANNELS.has(channel))
      return Promise.resolve(
        refusal('invalid_input', `unknown channel ${JSON.stringify(String(channel)).slice(0, 80)}`),
      );
    return (ipc.invoke(IPC_INVOKE, channel, input) as Promise<IpcResult<unknown>>).catch(() =>
      // Electron rejects with a generic "Error invoking remote method"; the page gets a typed value.
      refusal('internal', `${channel}: the main process did not answer`),
    );
  }

  function on(event: string, cb: (payload: unknown) => void): () => void {
    if (typeof event !== 'string' || !EVENTS.has(event))
      throw new TypeError(`unknown event ${JSON.stringify(String(event)).slice(0, 80)}`);
    if (typeof cb !== 'function') throw new TypeError(`the listener for ${event} must be a function`);
    if (!attached) {
      ipc.on(IPC_EVENT, dispatch);
      attached = true;
    }
    // One entry per call, so the same function added twice is removed one registration at a time.
    const entry = { cb };
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(entry);
    return () => {
      const current = listeners.get(event);
      if (!current?.delete(entry)) return;
      if (current.size === 0) listeners.delete(event);
      if (listeners.size === 0 && attached) {
        ipc.removeListener(IPC_EVENT, dispatch);
        attached = false;
      }
    };
  }

  return Object.freeze({ invoke, on }) as BridgeApi;
}

contextBridge.exposeInMainWorld('bridge', createBridge(ipcRenderer));
