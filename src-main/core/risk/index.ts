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
export { allExits, createDailyLimits, dayPnlText, toPaise } from './daily-limits.js';
export type { DailyBooks, DailyLeg, DailyLimits, DailyVerdict } from './daily-limits.js';
export { limitsFor } from './symbol-limits.js';
export type { OrderLimits } from './symbol-limits.js';
