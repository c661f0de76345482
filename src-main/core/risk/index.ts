export { checkOrder } from './check-order.js';
export type { InstrumentRules, RiskContext, RiskOrder, RiskResult } from './check-order.js';
export { createDuplicateGuard } from './duplicate-guard.js';
export type {
  AdmitOptions,
  DuplicateGuard,
  DuplicateGuardOptions,
  DuplicateOrder,
} from './duplicate-guard.js';
export { preTradeCheck } from './pre-trade.js';
