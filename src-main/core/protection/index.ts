// Protective orders (issue 25): where a bracket's stop and target rest, how the stop trails, and
// the one-cancels-other plan the core keeps against the gateway's book.
export {
  protectiveLevels,
  type EntryAction,
  type EntryFill,
  type Levels,
  type LevelsResult,
} from './levels.js';
export { nextStop, type TrailInput } from './trail.js';
export {
  openQuantity,
  planOco,
  type BracketBook,
  type LegName,
  type LegOrder,
  type OcoAction,
} from './oco.js';
export {
  createBracketKeeper,
  type BracketEntry,
  type BracketHazard,
  type BracketKeeper,
  type ProtectiveOrder,
  type ProtectivePorts,
  type SendResult,
} from './bracket-keeper.js';
export { outcomeOf, sendResultOf } from './send-outcome.js';
export { createProtectionService, type BracketAnswer, type ProtectionService } from './protection-service.js';
export { createBracketStore, type BracketStore } from './bracket-store.js';
export { wireProtection, type ProtectionWiring } from './protection-wiring.js';
export { bracketView } from './bracket-view.js';
export { hazardWords } from './hazard-words.js';
