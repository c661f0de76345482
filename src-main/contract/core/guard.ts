// The account guard (issue 26, docs/guard.md): per profile, daily limits on the account's MTM, orders
// and positions, what a breach does, and how long its lock lasts. Rules live in settings.json; the
// day's counters and any lock live in guard/<profile>.json so a restart cannot reset them. Money is
// in rupees (decimal numbers, compared exactly in paise by the core).
import { z } from 'zod';
import { NotifyChoice } from './notify-choice.js';

const rupees = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .min(0, `${what} cannot be negative (0 turns it off)`)
    .max(1e12, `${what} is too large`)
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, {
      error: `${what} has at most 2 decimals (paise)`,
    });
const count = (what: string, max: number) =>
  z
    .number({ error: `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .min(0, `${what} cannot be negative (0 turns it off)`)
    .max(max, `${what} must be at most ${max}`);

/** The rules a guard watches; 0 turns one off. */
export const GUARD_RULES = [
  'dailyLoss',
  'dailyProfit',
  'maxDrawdown',
  'maxOrders',
  'maxOpenPositions',
  'maxLossPerPosition',
] as const;
export type GuardRule = (typeof GUARD_RULES)[number];

/**
 * warn: alerts only; block: only orders that reduce a position go out until the lock ends; flatten:
 * block, and cancel every working order and close every position, re-squaring until flat.
 */
export const GUARD_ACTIONS = ['warn', 'block', 'flatten'] as const;
export type GuardAction = (typeof GUARD_ACTIONS)[number];

export const GuardRules = z.strictObject({
  enabled: z.boolean({ error: 'enabled must be true or false' }).default(false),
  /** ₹ of the day's MTM (realised + unrealised) lost. */
  dailyLoss: rupees('Daily loss lock').default(0),
  /** ₹ of the day's MTM made: the day is locked in. */
  dailyProfit: rupees('Daily profit lock').default(0),
  /** ₹ fallen from the day's peak MTM. */
  maxDrawdown: rupees('Max drawdown').default(0),
  /** Orders placed today on the account (any client's). */
  maxOrders: count('Max orders per day', 100_000).default(0),
  maxOpenPositions: count('Max open positions', 10_000).default(0),
  /** ₹ lost on one open position. */
  maxLossPerPosition: rupees('Max loss per position').default(0),
  action: z
    .enum(GUARD_ACTIONS, { error: `action must be one of: ${GUARD_ACTIONS.join(', ')}` })
    .default('block'),
  /** Minutes a lock lasts; 0: until the next IST trading day. */
  coolOffMinutes: count('Cooling-off time', 24 * 60).default(0),
  /** What reaching 50 % and 80 % of a limit does. */
  warn50: NotifyChoice.default('in_app'),
  warn80: NotifyChoice.default('os'),
});
export type GuardRules = z.infer<typeof GuardRules>;
export type GuardRulesInput = z.input<typeof GuardRules>;

/** Rules per profile id; a profile without an entry has the guard off. */
export const GuardSettings = z.record(z.string(), GuardRules);
export type GuardSettings = z.infer<typeof GuardSettings>;

/** A lock: why, since when, until when (ISO, IST), and what it does. */
export const GuardLock = z.object({
  rule: z.enum(GUARD_RULES),
  /** The breach in words ("Day MTM −₹5,020.00 is past the daily loss lock ₹5,000.00"). */
  reason: z.string(),
  action: z.enum(['block', 'flatten']),
  since: z.string(),
  until: z.string(),
});
export type GuardLock = z.infer<typeof GuardLock>;

/** guard/<profile>.json: the day's counters and the lock, written at each change. */
export const StoredGuard = z.object({
  version: z.literal(1),
  /** The IST trading day, YYYY-MM-DD. */
  day: z.string(),
  /** Decimal text of the day's peak MTM. */
  peak: z.string(),
  /** Warnings already given today, per rule: the highest level (50 or 80). */
  warned: z.record(z.string(), z.union([z.literal(50), z.literal(80)])),
  /**
   * Rules whose breach was acted on today (alerted, locked): each acts once a day, so a lock that has
   * ended (cooling-off, UNLOCK) is not made again by the same rule. Absent in files written before it.
   */
  acted: z.array(z.enum(GUARD_RULES)).optional(),
  lock: GuardLock.nullable(),
});
export type StoredGuard = z.infer<typeof StoredGuard>;
