// Binds the core to Electron IPC: one invoke handler that checks the sender before the router sees the
// call, and every core event (plus the shell's own) sent to the app's windows. Written over the few
// Electron methods it uses, so a test drives it with fakes.
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { errorMessage, type EventName, type EventPayload, type IpcResult } from '../contract/index.js';
import { IPC_EVENT, IPC_INVOKE } from '../shared/ipc-names.js';
import type { Logger } from '../core/index.js';
import { isTrustedSender, senderInfo, type SenderTrust } from './sender-check.js';

export interface BindableCore {
  router: { invoke(channel: string, input?: unknown): Promise<IpcResult<unknown>> };
  events: { onAny(listener: <E extends EventName>(name: E, payload: EventPayload<E>) => void): () => void };
}

export interface IpcBindingOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  core: BindableCore;
  trust: SenderTrust;
  /** The web contents events go to (the app's windows), read at each send. */
  targets(): readonly Pick<WebContents, 'send' | 'isDestroyed'>[];
  logger: Pick<Logger, 'warn' | 'error'>;
  /** Sees every answered call (the shell applies its own settings after `settings.update`). */
  onAnswered?(channel: string, result: IpcResult<unknown>): void;
}

export interface IpcBinding {
  /** Sends an event of the shell's own (`tray.state`, `shell.command`) like the core's. */
  publish<E extends EventName>(name: E, payload: EventPayload<E>): void;
  /** Sends the latest state-like events again (a page that just loaded missed them). */
  replay(): void;
  dispose(): void;
}

/**
 * State the page cannot ask for (session.snapshot covers the rest): the latest is kept and replayed
 * to a page that (re)loads after it was sent.
 */
const REPLAYED: ReadonlySet<EventName> = new Set<EventName>(['tray.state']);

export const REFUSED_SENDER: IpcResult<never> = {
  ok: false,
  error: { kind: 'forbidden', message: 'OrderDesk answers its own window only' },
};

export function bindIpc(o: IpcBindingOptions): IpcBinding {
  async function handle(
    e: IpcMainInvokeEvent,
    channel: unknown,
    input: unknown,
  ): Promise<IpcResult<unknown>> {
    if (!isTrustedSender(senderInfo(e), o.trust)) {
      o.logger.warn('IPC call from an untrusted sender refused', {
        channel: typeof channel === 'string' ? channel.slice(0, 64) : typeof channel,
      });
      return REFUSED_SENDER;
    }
    let result: IpcResult<unknown>;
    try {
      // The router refuses a non-string or unknown channel itself, with a typed error.
      result = await o.core.router.invoke(channel as string, input);
    } catch (err) {
      // The router answers errors as values; a throw is a bug, reported without its text to the page.
      o.logger.error('IPC call failed', { error: errorMessage(err) });
      return { ok: false, error: { kind: 'internal', message: 'the call failed inside OrderDesk' } };
    }
    try {
      o.onAnswered?.(String(channel), result);
    } catch (err) {
      o.logger.error('IPC answer hook failed', { error: errorMessage(err) });
    }
    return result;
  }

  const latest = new Map<EventName, unknown>();

  function publish<E extends EventName>(name: E, payload: EventPayload<E>): void {
    if (REPLAYED.has(name)) latest.set(name, payload);
    send(name, payload);
  }

  function send(name: EventName, payload: unknown): void {
    for (const wc of o.targets()) {
      if (wc.isDestroyed()) continue;
      try {
        wc.send(IPC_EVENT, name, payload);
      } catch (err) {
        // A payload that cannot be cloned is a bug; the other windows still get the event.
        o.logger.error('event not sent to a window', { event: name, error: errorMessage(err) });
      }
    }
  }

  o.ipcMain.handle(IPC_INVOKE, handle);
  const unsubscribe = o.core.events.onAny(publish);
  return {
    publish,
    replay() {
      for (const [name, payload] of latest) send(name, payload);
    },
    dispose() {
      unsubscribe();
      o.ipcMain.removeHandler(IPC_INVOKE);
    },
  };
}
