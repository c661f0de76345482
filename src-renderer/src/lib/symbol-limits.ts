// The limits the ticket judges an order by: an instrument's own per-symbol limits (settings
// risk.symbolOverrides) replace the general ones for it, a field it leaves out keeps the general
// value. The core applies the same rule on send (core/risk/symbol-limits.ts); this lets the ticket
// say so before sending instead of after.
import type { RiskLimits } from '@contract';
import type { TicketLimits } from './ticket-rules';

export function limitsForInstrument(
  limits: (TicketLimits & Partial<Pick<RiskLimits, 'symbolOverrides'>>) | undefined,
  instrument: { symbol: string; exchange: string } | undefined,
): TicketLimits | undefined {
  if (!limits || !instrument) return limits;
  const symbol = instrument.symbol.toUpperCase();
  const o = limits.symbolOverrides?.find((x) => x.symbol === symbol && x.exchange === instrument.exchange);
  if (!o) return limits;
  return {
    maxQuantityPerOrder: o.maxQuantityPerOrder ?? limits.maxQuantityPerOrder,
    maxValuePerOrder: o.maxValuePerOrder ?? limits.maxValuePerOrder,
    priceBandPercent: o.priceBandPercent ?? limits.priceBandPercent,
  };
}
