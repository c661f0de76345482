// The paper's ManualClock is the program's Clock: timers fire in time order as it is moved, each
// seeing its own due time, and never when time moves backwards.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src-main/paper/market/clock.js';

describe('ManualClock timers', () => {
  it('fire in due order as advance passes them, each at its own time', () => {
    const clock = new ManualClock(1_000);
    const seen: [string, number][] = [];
    clock.setTimer(() => seen.push(['b', clock.now()]), 300);
    clock.setTimer(() => seen.push(['a', clock.now()]), 100);
    clock.setTimer(() => seen.push(['a2', clock.now()]), 100);
    clock.advance(99);
    expect(seen).toEqual([]);
    clock.advance(150);
    expect(seen).toEqual([
      ['a', 1_100],
      ['a2', 1_100],
    ]);
    expect(clock.now()).toBe(1_249);
    expect(clock.pending).toBe(1);
    clock.advance(51);
    expect(seen.at(-1)).toEqual(['b', 1_300]);
    expect(clock.pending).toBe(0);
  });

  it('a timer set by a timer fires in the same advance when it falls due within it', () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    const tick = () => {
      seen.push(clock.now());
      if (seen.length < 5) clock.setTimer(tick, 100);
    };
    clock.setTimer(tick, 100);
    clock.advance(350);
    expect(seen).toEqual([100, 200, 300]);
    clock.advance(1_000);
    expect(seen).toEqual([100, 200, 300, 400, 500]);
  });

  it('cancelled timers never fire; set() backwards fires nothing, forwards fires what is due', () => {
    const clock = new ManualClock(10_000);
    const seen: string[] = [];
    const cancel = clock.setTimer(() => seen.push('cancelled'), 10);
    clock.setTimer(() => seen.push('due'), 500);
    cancel();
    clock.set(5_000);
    expect(seen).toEqual([]);
    clock.set(10_499);
    expect(seen).toEqual([]);
    clock.set(20_000);
    expect(seen).toEqual(['due']);
    expect(clock.now()).toBe(20_000);
  });
});
