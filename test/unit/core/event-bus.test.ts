// The event bus numbers what it emits: 1, 2, 3… in emission order with no gap, also when a listener
// emits while it is being called (a fill raising an alert), and a throwing listener loses nothing.
import { describe, expect, it } from 'vitest';
import type { BusEventName } from '../../../src-main/contract/index.js';
import { createEventBus } from '../../../src-main/core/router/event-bus.js';

const switched = (profileId: string) => ({ profileId });

describe('event seq', () => {
  it('numbers every event 1, 2, 3… and lastSeq is the last one emitted', () => {
    const bus = createEventBus();
    const seen: [BusEventName, number][] = [];
    bus.onAny((name, payload) => seen.push([name, payload.seq]));
    expect(bus.lastSeq()).toBe(0);
    bus.emit('profiles.switched', switched('a'));
    bus.emit('alerts.state', { paused: false, muted: [], sticky: [] });
    bus.emit('profiles.switched', switched('b'));
    expect(seen).toEqual([
      ['profiles.switched', 1],
      ['alerts.state', 2],
      ['profiles.switched', 3],
    ]);
    expect(bus.lastSeq()).toBe(3);
  });

  it('delivers an event emitted by a listener after the one being delivered, to every listener', () => {
    const bus = createEventBus();
    // The core's wiring: a by-name listener reacts to one event by emitting another.
    bus.on('profiles.switched', (e) => {
      if (e.profileId === 'a') bus.emit('alerts.state', { paused: true, muted: [], sticky: [] });
    });
    const transport: number[] = [];
    bus.onAny((_name, payload) => transport.push(payload.seq));
    const named: number[] = [];
    bus.on('alerts.state', (e) => named.push(e.seq));
    bus.emit('profiles.switched', switched('a'));
    bus.emit('profiles.switched', switched('c'));
    // Without the queue the transport would hear 2 before 1.
    expect(transport).toEqual([1, 2, 3]);
    expect(named).toEqual([2]);
    expect(bus.lastSeq()).toBe(3);
  });

  it('a throwing listener is reported and the others still hear every seq', () => {
    const failures: string[] = [];
    const bus = createEventBus((name) => failures.push(name));
    bus.on('profiles.switched', () => {
      throw new Error('bad listener');
    });
    const heard: number[] = [];
    bus.onAny((_name, payload) => heard.push(payload.seq));
    bus.emit('profiles.switched', switched('a'));
    bus.emit('profiles.switched', switched('b'));
    expect(heard).toEqual([1, 2]);
    expect(failures).toEqual(['profiles.switched', 'profiles.switched']);
  });

  it('a listener that unsubscribes while called does not stop the next one', () => {
    const bus = createEventBus();
    const heard: string[] = [];
    const off = bus.on('profiles.switched', () => {
      heard.push('first');
      off();
    });
    bus.on('profiles.switched', () => heard.push('second'));
    bus.emit('profiles.switched', switched('a'));
    bus.emit('profiles.switched', switched('b'));
    expect(heard).toEqual(['first', 'second', 'second']);
  });
});
