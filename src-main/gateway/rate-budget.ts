// One request budget per gateway (architecture rule 5): a sliding window of `perSecond` grants in any
// second, which is exactly what the gateway's moving-window limiter counts, so a well-behaved client
// never trips it. Waiting callers form a priority queue: order mutations go ahead of polling reads.
import type { Clock } from './clock.js';

export type Priority = 'mutation' | 'read';

interface Waiter {
  rank: number;
  seq: number;
  grant: () => void;
}

export class RateBudget {
  private readonly grants: number[] = [];
  private readonly queue: Waiter[] = [];
  private seq = 0;
  private cancelTimer: (() => void) | undefined;

  constructor(
    private readonly clock: Clock,
    /** Requests per window; 0 or Infinity disables the budget. */
    readonly perSecond = 10,
    private readonly windowMs = 1000,
  ) {}

  /** Resolves when the caller may send one request. */
  acquire(priority: Priority): Promise<void> {
    if (!(this.perSecond > 0) || this.perSecond === Infinity) return Promise.resolve();
    return new Promise((grant) => {
      this.queue.push({ rank: priority === 'mutation' ? 0 : 1, seq: this.seq++, grant });
      this.pump();
    });
  }

  /** Callers waiting for a grant. */
  get waiting(): number {
    return this.queue.length;
  }

  private pump(): void {
    const now = this.clock.now();
    while (this.grants.length > 0 && (this.grants[0] ?? 0) + this.windowMs <= now) this.grants.shift();
    while (this.queue.length > 0 && this.grants.length < this.perSecond) {
      let best = 0;
      for (let i = 1; i < this.queue.length; i++) {
        const a = this.queue[i];
        const b = this.queue[best];
        if (a && b && (a.rank < b.rank || (a.rank === b.rank && a.seq < b.seq))) best = i;
      }
      const [waiter] = this.queue.splice(best, 1);
      this.grants.push(now);
      waiter?.grant();
    }
    if (this.queue.length > 0 && !this.cancelTimer) {
      const oldest = this.grants[0] ?? now;
      this.cancelTimer = this.clock.setTimer(
        () => {
          this.cancelTimer = undefined;
          this.pump();
        },
        oldest + this.windowMs - now,
      );
    }
  }
}
