export { createGuardService } from './guard-service.js';
export type { GuardAnswer, GuardDeps, GuardService } from './guard-service.js';
export { createGuardStore } from './guard-store.js';
export type { GuardStore } from './guard-store.js';
export { wireGuard, GUARD_STRATEGY, type GuardWiring } from './guard-wiring.js';
export type { FlattenProgress, FlattenRun } from './guard-profile.js';
