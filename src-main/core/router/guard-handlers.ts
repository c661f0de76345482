// `guard.*`: the active profile's account guard (core/guard). The view answers whole; an early unlock
// needs the typed UNLOCK (checked by the channel's schema) and is journalled; stopping a flatten
// leaves the lock in place.
import type { GuardService } from '../guard/index.js';
import { failResult, okResult } from './results.js';
import type { Handlers } from './router.js';
import type { Session } from './session.js';

export type GuardChannels = 'guard.state' | 'guard.unlock' | 'guard.stopFlatten';

export function guardHandlers(d: {
  session: () => Session;
  guard: GuardService;
}): Pick<Handlers, GuardChannels> {
  const profile = () => d.session().profile.id;
  return {
    'guard.state': async () => okResult(d.guard.view(profile())),
    async 'guard.unlock'() {
      const r = await d.guard.unlock(profile());
      return r.ok ? okResult(r.view) : failResult('conflict', r.message);
    },
    async 'guard.stopFlatten'() {
      const r = d.guard.stopFlatten(profile());
      return r.ok ? okResult(r.view) : failResult('conflict', r.message);
    },
  };
}
