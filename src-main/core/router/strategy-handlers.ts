// `strategies.*`: the active profile's options strategies (core/strategies, docs/strategies.md). Each
// action answers with the strategy as it stands after it; a refusal of the action itself (an unknown
// id, a strategy in the wrong state) is an invalid_input or conflict with the reason in words.
import type { IpcResult, StrategyView } from '../../contract/index.js';
import type { StrategyAnswer, StrategyService } from '../strategies/strategy-service.js';
import { failResult, okResult } from './results.js';
import type { Handlers } from './router.js';
import type { Session } from './session.js';

export type StrategyChannels =
  | 'strategies.send'
  | 'strategies.resume'
  | 'strategies.exit'
  | 'strategies.roll'
  | 'strategies.update'
  | 'strategies.remove'
  | 'strategies.list';

const answer = (r: StrategyAnswer): IpcResult<StrategyView> =>
  r.ok ? okResult(r.view) : failResult(r.kind, r.message);

export function strategyHandlers(d: {
  session: () => Session;
  strategies: StrategyService;
}): Pick<Handlers, StrategyChannels> {
  const profile = () => d.session().profile.id;
  return {
    async 'strategies.send'(input) {
      return answer(await d.strategies.send(profile(), input));
    },
    async 'strategies.resume'(input) {
      return answer(await d.strategies.resume(profile(), input.id));
    },
    async 'strategies.exit'(input) {
      return answer(await d.strategies.exit(profile(), input.id));
    },
    async 'strategies.roll'(input) {
      return answer(await d.strategies.roll(profile(), input));
    },
    async 'strategies.update'(input) {
      return answer(await d.strategies.update(profile(), input));
    },
    async 'strategies.remove'(input) {
      const r = await d.strategies.remove(profile(), input.id);
      return r.ok ? okResult({ id: input.id }) : failResult(r.kind, r.message);
    },
    async 'strategies.list'() {
      const profileId = profile();
      return okResult({ profileId, strategies: d.strategies.views(profileId) });
    },
  };
}
