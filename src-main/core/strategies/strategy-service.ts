// Options strategies per profile (issue 27, docs/strategies.md). The service's face: what the router's
// strategies.* channels call. Its parts live beside it in core/strategies.
import type {
  StrategyRollInput,
  StrategySendInput,
  StrategyUpdateInput,
  StrategyView,
} from '../../contract/index.js';

export type StrategyAnswer =
  { ok: true; view: StrategyView } | { ok: false; kind: 'invalid_input' | 'conflict'; message: string };

export interface StrategyService {
  send(profileId: string, input: StrategySendInput): Promise<StrategyAnswer>;
  resume(profileId: string, id: string): Promise<StrategyAnswer>;
  exit(profileId: string, id: string): Promise<StrategyAnswer>;
  roll(profileId: string, input: StrategyRollInput): Promise<StrategyAnswer>;
  update(profileId: string, input: StrategyUpdateInput): Promise<StrategyAnswer>;
  remove(
    profileId: string,
    id: string,
  ): Promise<{ ok: true } | { ok: false; kind: 'invalid_input' | 'conflict'; message: string }>;
  views(profileId: string): StrategyView[];
}
