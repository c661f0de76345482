// Options strategies (issue 27, docs/strategies.md): legs sent as one, followed as one from their
// trades, exited as one basket, rolled a leg at a time.
export { parseOptionSymbol, OPTION_EXCHANGES, type OptionContract } from './option-symbol.js';
export { sendOrder } from './leg-order.js';
export {
  legPnl,
  strategyPnl,
  reached,
  type LegPnl,
  type LegTrade,
  type StrategyPnl,
} from './strategy-pnl.js';
export { moneyOf, rupeeText, toPaise, type Money } from './exact-money.js';
export { createStrategyStore, restored, type StrategyStore } from './strategy-store.js';
export {
  createStrategyService,
  type StrategyAnswer,
  type StrategyBooks,
  type StrategyCore,
  type StrategyDeps,
  type StrategyService,
} from './strategy-service.js';
export { wireStrategies, type StrategyWiring } from './strategy-wiring.js';
