// The full pre-trade gate: the pure checks first, then the duplicate guard, which records the order
// only when everything passed (a refused order must not make its corrected retry look like a duplicate).
import { checkOrder, type RiskContext, type RiskOrder, type RiskResult } from './check-order.js';
import type { AdmitOptions, DuplicateGuard } from './duplicate-guard.js';

export function preTradeCheck(
  order: RiskOrder,
  ctx: RiskContext,
  guard: DuplicateGuard,
  options: AdmitOptions = {},
): RiskResult {
  const checked = checkOrder(order, ctx);
  if (!checked.ok) return checked;
  return guard.admit(order, options);
}
