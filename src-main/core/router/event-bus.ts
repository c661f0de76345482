// The core's typed event stream: names and payloads are the contract's EVENTS table. Listeners that
// throw are isolated (and reported) so one bad subscriber cannot stop the watcher.
import type { EventName, EventPayload } from '../../contract/index.js';

export type Listener<E extends EventName> = (payload: EventPayload<E>) => void;
export type AnyListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;
export type Emit = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

export interface EventBus {
  on<E extends EventName>(name: E, listener: Listener<E>): () => void;
  /** Every event, for transports that forward the whole stream (IPC, WebSocket). */
  onAny(listener: AnyListener): () => void;
  emit: Emit;
}

export function createEventBus(onListenerError?: (name: EventName, err: unknown) => void): EventBus {
  const byName = new Map<EventName, Set<(payload: never) => void>>();
  const any = new Set<AnyListener>();
  const guard = (name: EventName, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      onListenerError?.(name, err);
    }
  };
  return {
    on(name, listener) {
      let set = byName.get(name);
      if (!set) byName.set(name, (set = new Set()));
      const l = listener as (payload: never) => void;
      set.add(l);
      return () => set.delete(l);
    },
    onAny(listener) {
      any.add(listener);
      return () => any.delete(listener);
    },
    emit(name, payload) {
      for (const l of byName.get(name) ?? []) guard(name, () => (l as Listener<typeof name>)(payload));
      for (const l of any) guard(name, () => l(name, payload));
    },
  };
}
