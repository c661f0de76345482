// A real clock that a test can move forward: for code that needs real timers (fetch timeouts) while
// the test skips a wait, such as a 429's cooldown, instead of sleeping through it.
import { systemClock, type Clock } from '../../src-main/contract/clock.js';

export class OffsetClock implements Clock {
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  /** Real timers: a timer already set still fires after its real delay, whatever `advance` does. */
  setTimer(fn: () => void, ms: number): () => void {
    return systemClock.setTimer(fn, ms);
  }

  /** Moves `now()` forward by `ms` at once. */
  advance(ms: number): void {
    this.offset += ms;
  }
}
