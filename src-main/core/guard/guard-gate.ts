// What the risk gate says while a lock holds: an order that does not reduce an open position is
// refused, in words naming the lock, why and when it ends. Exits go out (risk/daily-limits' allExits:
// unknown positions make nothing an exit).
import type { GuardLock } from '../../contract/index.js';
import { formatIstDateTime } from '../../shared/format.js';
import { allExits, type DailyBooks, type DailyLeg } from '../risk/daily-limits.js';
import { ruleName } from './guard-rules.js';

/** The lock's end in words: `23-Nov-2026 09:15:00 IST`. */
export const lockEndWords = (lock: GuardLock): string => formatIstDateTime(Date.parse(lock.until));

export function lockRefusal(
  lock: GuardLock,
  legs: readonly DailyLeg[],
  positions: DailyBooks['positions'],
): string | undefined {
  if (allExits(legs, positions)) return undefined;
  const by = lock.action === 'flatten' ? 'locked and flattening' : 'locked';
  return `Account guard ${by} by the ${ruleName(lock.rule)} until ${lockEndWords(lock)}: ${lock.reason}. Only orders that reduce an open position go out until then (or until UNLOCK is typed in the guard)`;
}
