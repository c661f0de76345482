// The margin calculator's figure for a basket (gateway-behaviour §5.6) from the sandbox leverages of
// §11.1: each position's value (quantity × price) divided by its leverage — equity MIS 5×, CNC/NRML
// 1×, futures 10×, options the full premium both ways — summed in units of ₹0.0001 so the rupee
// figure is exact. Positions are priced at their limit price when they carry one (LIMIT, SL), else
// at the last traded price. Each position is margined on its own, as the engine blocks it, so there
// is no hedge benefit. The leverage rule has no SPAN part: it is all reported as exposure margin.
import type { MarginPosition } from '../../contract/index.js';
import type { InstrumentMaster } from '../instruments/instrument.js';
import { normaliseSymbol } from '../instruments/symbols.js';
import type { Market } from '../market/market.js';
import { leverageFor, type LeverageConfig } from './margin.js';
import { ceilDiv, toUnits } from './units.js';

export type BasketMargin = { ok: true; totalUnits: number } | { ok: false; status: number; message: string };

export function basketMargin(
  positions: readonly MarginPosition[],
  master: InstrumentMaster,
  market: Market,
  lev: LeverageConfig,
): BasketMargin {
  let total = 0;
  for (const [i, p] of positions.entries()) {
    const symbol = normaliseSymbol(p.symbol);
    const inst = master.get(p.exchange, symbol);
    if (!inst) {
      return {
        ok: false,
        status: 400,
        message: `positions[${i}]: symbol ${symbol} not found in ${p.exchange}`,
      };
    }
    const limited = (p.pricetype === 'LIMIT' || p.pricetype === 'SL') && (p.price ?? 0) > 0;
    const price = limited ? (p.price ?? 0) : market.lastPrice(inst);
    const leverage = leverageFor(lev, inst, p.product, p.action === 'BUY');
    total += ceilDiv(p.quantity * toUnits(price), leverage);
  }
  return { ok: true, totalUnits: total };
}
