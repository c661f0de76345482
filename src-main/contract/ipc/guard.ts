// The account guard as the desk sees it (core/guard, docs/guard.md): the day's MTM and counters
// against each limit that is on, the lock if any, and a flatten's progress. `guard.state` is both the
// channel that reads it and the event sent whole at each change, for the active profile.
import { z } from 'zod';
import { GUARD_RULES, GuardLock, GuardRules, ProfileId } from '../../contract/core/index.js';

/** One limit that is on, and how much of it the day has used. */
export const GuardUsage = z.object({
  rule: z.enum(GUARD_RULES),
  /** What counts now: ₹ for money rules (decimal text), a count otherwise. */
  used: z.string(),
  limit: z.string(),
  /** used / limit × 100, rounded down to a whole percent. */
  percent: z.number().int().nonnegative(),
  /** "Day loss ₹2,510.00 of ₹5,000.00". */
  words: z.string(),
});
export type GuardUsage = z.infer<typeof GuardUsage>;

export const GUARD_FLATTEN_STATES = ['idle', 'running', 'flat', 'stopped'] as const;
export const GuardFlatten = z.object({
  state: z.enum(GUARD_FLATTEN_STATES),
  /** Re-squaring rounds run so far. */
  rounds: z.number().int().nonnegative(),
  text: z.string(),
});
export type GuardFlatten = z.infer<typeof GuardFlatten>;

export const GuardView = z.object({
  profileId: ProfileId,
  rules: GuardRules,
  /** The IST trading day, YYYY-MM-DD. */
  day: z.string(),
  /** Realised + unrealised, decimal text; null until the books have been read. */
  mtm: z.string().nullable(),
  peak: z.string().nullable(),
  orders: z.number().int().nonnegative(),
  openPositions: z.number().int().nonnegative(),
  usage: z.array(GuardUsage),
  /** The limit closest to being reached, if any is on. */
  nearest: GuardUsage.nullable(),
  lock: GuardLock.nullable(),
  flatten: GuardFlatten,
});
export type GuardView = z.infer<typeof GuardView>;

/** Unlocking before the lock ends: the trader types UNLOCK; it is journalled. */
export const GuardUnlockInput = z.strictObject({
  confirm: z.literal('UNLOCK', { error: 'type UNLOCK to end the lock early' }),
});
export type GuardUnlockInput = z.infer<typeof GuardUnlockInput>;
