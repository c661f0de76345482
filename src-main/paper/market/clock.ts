// Clocks for the simulator: the real one, and a manual one so tests control time exactly.
import type { Clock } from './market.js';

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  private ms: number;

  constructor(startMs: number = Date.now()) {
    this.ms = startMs;
  }

  now(): number {
    return this.ms;
  }

  set(ms: number): void {
    this.ms = ms;
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}
