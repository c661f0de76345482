// The desk's pauses (the margin ask after typing, the confirmation's arming) on a clock the test
// moves: timers and performance.now are fake but still flow with real time, so settle()'s zero-delay
// yields run, and `pass(ms)` moves the clock on by `ms` at once.
import { vi } from 'vitest';
import { settle } from './desk-fixture';

export function useMovedClock(): void {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'performance'],
    shouldAdvanceTime: true,
    advanceTimeDelta: 1,
  });
}

/** Moves the clock on by `ms` (the timers due run), then lets their promise chains settle. */
export async function pass(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await settle();
}
