// Clocks for the simulator: the real one, and a manual one so tests control time exactly (the
// market's prices and the paper server's rate windows both follow it).
import type { Clock } from '../../contract/clock.js';

export { systemClock } from '../../contract/clock.js';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * A clock that moves only when told to. Timers fire synchronously, in time order, as `advance` or
 * `set` moves past them, each seeing `now()` at its own due time.
 */
export class ManualClock implements Clock {
  private ms: number;
  private seq = 0;
  private timers: Timer[] = [];

  constructor(startMs: number = Date.now()) {
    this.ms = startMs;
  }

  now(): number {
    return this.ms;
  }

  setTimer(fn: () => void, ms: number): () => void {
    const timer: Timer = { at: this.ms + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.timers.length;
  }

  /** Jumps to `ms`; forward, it fires the timers due by then. Backward, timers wait for their time. */
  set(ms: number): void {
    if (ms > this.ms) this.fireUntil(ms);
    this.ms = ms;
  }

  advance(ms: number): void {
    this.set(this.ms + ms);
  }

  private fireUntil(target: number): void {
    for (;;) {
      let due: Timer | undefined;
      for (const t of this.timers) {
        if (t.at <= target && (!due || t.at < due.at || (t.at === due.at && t.seq < due.seq))) due = t;
      }
      if (!due) return;
      const fired = due;
      this.timers = this.timers.filter((t) => t !== fired);
      this.ms = Math.max(this.ms, fired.at);
      fired.fn();
    }
  }
}
