// A BridgeApi for renderer logic tests: records every invoke, answers from per-channel handlers
// (a value, a typed error, or a promise the test resolves later), and lets a test emit events.
import type {
  BridgeApi,
  Channel,
  ChannelInput,
  ChannelOutput,
  EventName,
  EventPayload,
  IpcResult,
} from '@contract';

export interface Call {
  channel: Channel;
  input: unknown;
}

type Handler<C extends Channel> = (
  input: ChannelInput<C> | undefined,
) => IpcResult<ChannelOutput<C>> | Promise<IpcResult<ChannelOutput<C>>>;

export class FakeBridge implements BridgeApi {
  readonly calls: Call[] = [];
  readonly #handlers = new Map<Channel, Handler<Channel>>();
  readonly #listeners = new Map<EventName, Set<(payload: never) => void>>();

  answer<C extends Channel>(channel: C, handler: Handler<C>): this {
    this.#handlers.set(channel, handler as unknown as Handler<Channel>);
    return this;
  }

  callsTo(channel: Channel): Call[] {
    return this.calls.filter((c) => c.channel === channel);
  }

  async invoke<C extends Channel>(channel: C, input?: ChannelInput<C>): Promise<IpcResult<ChannelOutput<C>>> {
    this.calls.push({ channel, input });
    const handler = this.#handlers.get(channel) as Handler<C> | undefined;
    if (!handler) return { ok: false, error: { kind: 'internal', message: `no fake answer for ${channel}` } };
    return handler(input);
  }

  on<E extends EventName>(event: E, cb: (payload: EventPayload<E>) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(cb as (payload: never) => void);
    return () => set.delete(cb as (payload: never) => void);
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const cb of this.#listeners.get(event) ?? []) (cb as (p: EventPayload<E>) => void)(payload);
  }

  listenerCount(event: EventName): number {
    return this.#listeners.get(event)?.size ?? 0;
  }
}

/** A promise with its resolve, for answers that arrive when the test says. */
export function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
