// Guard views for the account guard's tests: the paper profile's guard on, a daily loss lock of
// ₹5,000 with the day ₹2,510 down (50 %), nothing locked; a test overrides only what it is about.
import type { GuardLock, GuardUsage, GuardView } from '@contract';

export function usage(over: Partial<GuardUsage> = {}): GuardUsage {
  return {
    rule: 'dailyLoss',
    used: '2510.00',
    limit: '5000.00',
    percent: 50,
    words: 'Day loss ₹2,510.00 of ₹5,000.00',
    ...over,
  };
}

/** A block lock made at 11:00 IST on Friday 20-Nov-2026, until Monday's open. */
export function lock(over: Partial<GuardLock> = {}): GuardLock {
  return {
    rule: 'maxOrders',
    reason: '1 orders today reached the max orders per day 1',
    action: 'block',
    since: '2026-11-20T05:30:00.000Z',
    until: '2026-11-23T03:45:00.000Z',
    ...over,
  };
}

export function guardView(over: Partial<GuardView> = {}): GuardView {
  const u = usage();
  return {
    profileId: 'paper',
    rules: {
      enabled: true,
      dailyLoss: 5000,
      dailyProfit: 0,
      maxDrawdown: 0,
      maxOrders: 0,
      maxOpenPositions: 0,
      maxLossPerPosition: 0,
      action: 'block',
      coolOffMinutes: 0,
      warn50: 'in_app',
      warn80: 'os',
    },
    day: '2026-11-20',
    mtm: '-2510.00',
    peak: '0.00',
    orders: 1,
    openPositions: 1,
    usage: [u],
    nearest: u,
    lock: null,
    flatten: { state: 'idle', rounds: 0, text: '' },
    ...over,
  };
}
