// What the guard tells the trader: its 50 % / 80 % warnings, a breach (warn only, or the lock and what
// it does), and a saved state that could not be read. Ids are per profile, day, rule and level, so the
// same warning can never be raised twice.
import type { GuardLock, GuardRules } from '../../contract/index.js';
import type { Notice } from '../alerts/index.js';
import { lockEndWords } from './guard-gate.js';
import { ruleName, type RuleUse, type WarnLevel } from './guard-rules.js';

/** What reaching a limit does, in words. */
export function actionWords(rules: Pick<GuardRules, 'action' | 'coolOffMinutes'>): string {
  if (rules.action === 'warn') return 'a warning only';
  const until = rules.coolOffMinutes > 0 ? `for ${rules.coolOffMinutes} min` : 'until the next trading day';
  return rules.action === 'block'
    ? `locked ${until}: only orders that reduce a position go out`
    : `locked ${until}, every working order cancelled and every position closed`;
}

export function warningNotice(
  where: { id: string; day: string },
  use: RuleUse,
  level: WarnLevel,
  rules: GuardRules,
): Notice {
  return {
    id: `guard:${where.id}:${where.day}:${use.rule}:${level}`,
    kind: 'warning',
    title: `Account guard: ${level} % of the ${ruleName(use.rule)}`,
    body: `${use.words}; at 100 %: ${actionWords(rules)}`,
    sticky: false,
  };
}

/** A breach: warn only (`lock` null), or the lock it made. */
export function breachNotice(
  where: { id: string; day: string },
  use: RuleUse,
  rules: GuardRules,
  lock: GuardLock | null,
): Notice {
  const id = `guard:${where.id}:${where.day}:${use.rule}:breach`;
  return lock
    ? {
        id,
        kind: 'warning',
        title: `Account guard locked until ${lockEndWords(lock)}`,
        body: `${use.reason}. ${actionWords(rules)}`,
        sticky: true,
      }
    : {
        id,
        kind: 'warning',
        title: `Account guard: ${ruleName(use.rule)} reached`,
        body: `${use.reason}. Warn only: nothing is blocked`,
        sticky: true,
      };
}

export function damagedNotice(profileId: string, at: number, body: string): Notice {
  return {
    id: `guard:${profileId}:damaged:${at}`,
    kind: 'warning',
    title: 'Account guard: saved state damaged',
    body,
    sticky: true,
  };
}
