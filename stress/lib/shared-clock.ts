// Two clocks that read one time across threads: the session's ManualClock writes every time it
// takes into a SharedArrayBuffer, and the paper thread's clock reads it, so the gateway stamps a
// request with the core's time (its rate windows see what the core's budget sees) while living in
// its own V8 isolate, whose heap is not the core's.
import type { Clock } from '../../src-main/contract/clock.js';
import { settle } from '../../src-main/gateway/clock.js';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

/** Adds `timer` to `timers`; the function returned takes it out again (a no-op once it fired). */
function addTimer(timers: Timer[], timer: Timer): () => void {
  timers.push(timer);
  return () => {
    const i = timers.indexOf(timer);
    if (i >= 0) timers.splice(i, 1);
  };
}

/** Fires the due timers of `timers` in order up to `target`, setting the time before each. */
async function fireDue(timers: Timer[], target: number, setTime: (t: number) => void): Promise<void> {
  await settle();
  for (;;) {
    let due: Timer | undefined;
    for (const t of timers)
      if (t.at <= target && (!due || t.at < due.at || (t.at === due.at && t.seq < due.seq))) due = t;
    if (!due) break;
    timers.splice(timers.indexOf(due), 1);
    setTime(due.at);
    due.fn();
    await settle();
  }
}

/** ManualClock's behaviour, with every time it takes published to `shared[0]`. */
export class PublishingClock implements Clock {
  private seq = 0;
  private readonly timers: Timer[] = [];

  constructor(
    private readonly shared: Float64Array,
    start: number,
  ) {
    shared[0] = start;
  }

  now(): number {
    return this.shared[0]!;
  }

  setTimer(fn: () => void, ms: number): () => void {
    return addTimer(this.timers, { at: this.now() + Math.max(0, ms), seq: this.seq++, fn });
  }

  async advance(ms: number): Promise<void> {
    const target = this.now() + ms;
    await fireDue(this.timers, target, (t) => (this.shared[0] = Math.max(this.now(), t)));
    this.shared[0] = target;
    await settle();
  }
}

/**
 * The paper thread's clock: between steps it reads the session's time; its own timers (matching,
 * feed ticks and pings) fire when the session says the time has moved, each at its own time.
 */
export class FollowingClock implements Clock {
  private seq = 0;
  private readonly timers: Timer[] = [];
  /** The time of the timer firing now, if any (the session's time may be ahead). */
  private firing: number | undefined;

  constructor(private readonly shared: Float64Array) {}

  now(): number {
    return this.firing ?? this.shared[0]!;
  }

  setTimer(fn: () => void, ms: number): () => void {
    return addTimer(this.timers, { at: this.now() + Math.max(0, ms), seq: this.seq++, fn });
  }

  /** Fires every timer due by the session's time now. */
  async catchUp(): Promise<void> {
    const target = this.shared[0]!;
    try {
      await fireDue(this.timers, target, (t) => (this.firing = Math.max(this.firing ?? t, t)));
    } finally {
      this.firing = undefined;
    }
  }
}
