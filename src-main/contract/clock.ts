// The program's one notion of time, as a port: rate limits, timeouts, polling, the journal and the
// simulated market all read it, so tests can move time instead of waiting for it. Parts that only
// read the time take `Pick<Clock, 'now'>`.

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Runs `fn` after `ms` of this clock's time; returns a function that cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};
