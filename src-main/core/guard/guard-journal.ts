// An early unlock in the journal, beside the order actions: which lock, why, since and until when, and
// when it was ended (typed UNLOCK). Nothing of the gateway (no key) is in it.
import type { GuardLock } from '../../contract/index.js';
import { formatIstIso } from '../../shared/format.js';
import type { Journal } from '../journal/index.js';

export function journalUnlock(
  journal: Pick<Journal, 'recordIntent' | 'recordOutcome'>,
  profileId: string,
  lock: GuardLock,
  now: number,
): string {
  const { rule, reason, action, since, until } = lock;
  const { id } = journal.recordIntent({
    profileId,
    operation: 'guardunlock',
    request: { rule, reason, action, since, until },
  });
  journal.recordOutcome(id, {
    outcome: 'ok',
    response: { unlockedAt: formatIstIso(now), message: 'Lock ended early: UNLOCK typed' },
  });
  return id;
}
