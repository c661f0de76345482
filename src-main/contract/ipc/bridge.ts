// The one API the renderer has: the preload (Electron), the browser-mode bridge script and the
// renderer's own client all implement or consume exactly this, so every transport is typed alike.
import type { Channel, ChannelInput, ChannelOutput } from './channels.js';
import type { EventName, EventPayload } from './events.js';
import type { IpcResult } from './result.js';

export interface BridgeApi {
  /** Calls a channel; never rejects: transport failures come back as `{ ok: false }`. */
  invoke<C extends Channel>(channel: C, input?: ChannelInput<C>): Promise<IpcResult<ChannelOutput<C>>>;
  /**
   * Listens to one event; returns the function that stops listening. The core's events carry `seq`
   * (1, 2, 3… in its lifetime): a desk loads `session.snapshot`, applies the events whose seq is
   * greater than the snapshot's, and reloads the snapshot when a seq is skipped. Events a transport
   * makes itself (`tray.state`, `shell.command`) carry none.
   */
  on<E extends EventName>(event: E, cb: (payload: EventPayload<E>) => void): () => void;
}
