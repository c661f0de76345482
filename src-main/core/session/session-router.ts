// The router the shell binds: every call waits for a profile switch under way (opening a session is
// quick: it never waits for the old gateway), so a call made after `profiles.switch` answered can
// never reach the previous profile; order channels are refused while the paper ledger is unavailable.
import type { Router } from '../router/index.js';
import type { StorageState } from '../storage-status.js';
import type { Sessions } from './sessions.js';

export function sessionRouter(
  inner: Router,
  sessions: Pick<Sessions, 'switching' | 'current'>,
  storage: Pick<StorageState, 'refusal'>,
): Router {
  return {
    channels: inner.channels,
    invoke: (async (channel: string, input?: unknown) => {
      await sessions.switching();
      const unavailable = storage.refusal(channel, sessions.current()?.profile.kind);
      if (unavailable) return unavailable;
      const result = await inner.invoke(channel, input);
      await sessions.switching();
      return result;
    }) as Router['invoke'],
  };
}
