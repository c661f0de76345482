// The core's typed event stream: names and payloads are the contract's EVENTS table. The bus numbers
// every event it emits (`seq`: 1, 2, 3… in this core's lifetime) and delivers them in that order,
// also when a listener emits while being called (a fill raising an alert): such an event waits until
// the current one has reached every listener, so no listener ever sees seq n+1 before n. Listeners
// that throw are isolated (and reported) so one bad subscriber cannot stop the watcher.
import type { BusEventName, EmitPayload, EventPayload } from '../../contract/index.js';

export type Listener<E extends BusEventName> = (payload: EventPayload<E>) => void;
export type AnyListener = <E extends BusEventName>(name: E, payload: EventPayload<E>) => void;
export type Emit = <E extends BusEventName>(name: E, payload: EmitPayload<E>) => void;

export interface EventBus {
  on<E extends BusEventName>(name: E, listener: Listener<E>): () => void;
  /** Every event, for transports that forward the whole stream (IPC, WebSocket). */
  onAny(listener: AnyListener): () => void;
  emit: Emit;
  /** The seq of the last event emitted (0 before the first). */
  lastSeq(): number;
}

interface Numbered {
  name: BusEventName;
  payload: EventPayload<BusEventName>;
}

export function createEventBus(onListenerError?: (name: BusEventName, err: unknown) => void): EventBus {
  const byName = new Map<BusEventName, Set<(payload: never) => void>>();
  const any = new Set<AnyListener>();
  let seq = 0;
  const queue: Numbered[] = [];
  let delivering = false;

  const guard = (name: BusEventName, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      onListenerError?.(name, err);
    }
  };

  function deliver({ name, payload }: Numbered): void {
    // Copies: a listener that subscribes or unsubscribes while called changes the next event's set.
    for (const l of [...(byName.get(name) ?? [])])
      guard(name, () => (l as (p: EventPayload<BusEventName>) => void)(payload));
    for (const l of [...any]) guard(name, () => l(name, payload));
  }

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
      seq += 1;
      queue.push({ name, payload: { ...payload, seq } as unknown as EventPayload<BusEventName> });
      if (delivering) return;
      delivering = true;
      try {
        for (let next = queue.shift(); next; next = queue.shift()) deliver(next);
      } finally {
        delivering = false;
      }
    },
    lastSeq: () => seq,
  };
}
