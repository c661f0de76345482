// A session snapshot of the connected paper profile, shared by the books and alerts tests; a test
// overrides only the fields it is about.
import type { SessionSnapshot } from '@contract';

export function snapshot(over: Partial<SessionSnapshot> = {}): SessionSnapshot {
  return {
    profile: {
      id: 'paper',
      name: 'Paper (simulated)',
      kind: 'paper',
      baseUrl: '',
      strategy: 'OrderDesk',
      rateLimitPerSecond: 10,
      active: true,
      hasKey: true,
    },
    mode: 'paper',
    connection: 'connected',
    apiKey: { profileId: 'paper', present: true, backend: 'memory', persistent: false },
    alerts: { paused: false, muted: [], sticky: [] },
    orders: null,
    trades: null,
    positions: null,
    funds: null,
    seq: 10,
    ...over,
  };
}

/** Lets a bridge answer (a resolved promise) land before the test reads the state. */
export const flush = () => new Promise((r) => setTimeout(r, 0));
