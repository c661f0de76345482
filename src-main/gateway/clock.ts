// Time as a port, so that rate budgets, backoff and timeouts can be tested without waiting. The
// Clock itself is the contract's; here are the Node-side helpers: sleep, and a ManualClock whose
// advance lets promise chains settle between timers (for async code under test).
import type { Clock } from '../contract/clock.js';

export { systemClock, type Clock } from '../contract/clock.js';

export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0) resolve();
    else clock.setTimer(resolve, ms);
  });
}

/** A clock that only moves when told to; `advance` fires due timers in order. */
export class ManualClock implements Clock {
  private time: number;
  private seq = 0;
  private timers: { at: number; seq: number; fn: () => void }[] = [];

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(fn: () => void, ms: number): () => void {
    const timer = { at: this.time + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing each due timer and letting promises settle in between. */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    await settle();
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = Math.max(this.time, due.at);
      due.fn();
      await settle();
    }
    this.time = target;
    await settle();
  }
}

/** Lets pending promise chains (and I/O callbacks queued as immediates) run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}
