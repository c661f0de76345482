// Per-symbol limits: an instrument's own max quantity, max value or price band replaces the general
// one for that instrument only; a field it leaves out keeps the general value.
import type { RiskLimits } from '../../contract/index.js';

export type OrderLimits = Pick<RiskLimits, 'maxQuantityPerOrder' | 'maxValuePerOrder' | 'priceBandPercent'>;

/** The limits that apply to one order, and the instrument they were set for (absent: the general ones). */
export function limitsFor(
  limits: RiskLimits,
  instrument: { symbol: string; exchange: string },
): { limits: OrderLimits; override?: string } {
  const symbol = instrument.symbol.toUpperCase();
  const o = limits.symbolOverrides.find((x) => x.symbol === symbol && x.exchange === instrument.exchange);
  const general: OrderLimits = {
    maxQuantityPerOrder: limits.maxQuantityPerOrder,
    maxValuePerOrder: limits.maxValuePerOrder,
    priceBandPercent: limits.priceBandPercent,
  };
  if (!o) return { limits: general };
  return {
    limits: {
      maxQuantityPerOrder: o.maxQuantityPerOrder ?? general.maxQuantityPerOrder,
      maxValuePerOrder: o.maxValuePerOrder ?? general.maxValuePerOrder,
      priceBandPercent: o.priceBandPercent ?? general.priceBandPercent,
    },
    override: `${o.exchange}:${o.symbol}`,
  };
}
