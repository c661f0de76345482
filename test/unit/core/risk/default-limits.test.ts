// The default risk limits let a new trader place one lot of any index future or option the paper
// master lists, at the price the simulator trades it at, through the core's own pre-trade check;
// with room for the index to move a quarter before a lot no longer fits.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../src-main/contract/index.js';
import { checkOrder, type RiskOrder } from '../../../../src-main/core/risk/index.js';
import { DEFAULT_SEED } from '../../../../src-main/paper/gateway.js';
import type { Instrument } from '../../../../src-main/paper/instruments/instrument.js';
import { buildMaster } from '../../../../src-main/paper/instruments/master.js';
import { createMarket, ManualClock } from '../../../../src-main/paper/market/index.js';

/** The index derivatives' instrument types (stock futures and options are FUTSTK, OPTSTK). */
const INDEX_TYPES = new Set(['FUTIDX', 'OPTIDX']);
/** How far the index may move up before one lot of its future must still fit the default limit. */
const HEADROOM = 1.25;

function oneLot(inst: Instrument, price: number, pricetype: 'LIMIT' | 'MARKET'): RiskOrder {
  return {
    symbol: inst.symbol,
    // Index derivatives trade on NFO and BFO, never on a quote-only index exchange.
    exchange: inst.exchange as RiskOrder['exchange'],
    action: 'BUY',
    quantity: inst.lotsize,
    pricetype,
    product: 'NRML',
    price: pricetype === 'LIMIT' ? price : 0,
    trigger_price: 0,
  };
}

describe('the default risk limits and one lot of an index derivative on the paper master', () => {
  it.each([
    [DEFAULT_SEED, '2026-11-27T10:00:00+05:30'],
    [7, '2027-03-02T15:00:00+05:30'],
    [99, '2025-06-30T12:00:00+05:30'],
  ])('seed %i at %s: every index future and option passes at its price', (seed, at) => {
    const nowMs = Date.parse(at);
    const today = new Date(nowMs + 19_800_000).toISOString().slice(0, 10);
    const master = buildMaster({ seed, today });
    const market = createMarket({ underlyings: master.underlyings, clock: new ManualClock(nowMs), seed });
    const limits = DEFAULT_SETTINGS.risk;
    const refused: string[] = [];
    const names = new Set<string>();
    let largest = 0;
    for (const inst of master.all) {
      if (!INDEX_TYPES.has(inst.instrumenttype)) continue;
      const last = market.lastPrice(inst);
      const instrument = { lotSize: inst.lotsize, tickSize: inst.tickSize, freezeQty: inst.freezeQty };
      // At the last price (a LIMIT there, and MARKET valued at it), and MARKET after a rise.
      const checks = [
        checkOrder(oneLot(inst, last, 'LIMIT'), { limits, instrument, lastPrice: last }),
        checkOrder(oneLot(inst, last, 'MARKET'), { limits, instrument, lastPrice: last }),
        checkOrder(oneLot(inst, last, 'MARKET'), { limits, instrument, lastPrice: last * HEADROOM }),
      ];
      for (const r of checks) if (!r.ok) refused.push(`${inst.symbol} @ ${last}: ${r.reasons.join('; ')}`);
      names.add(`${inst.exchange}:${inst.name}:${inst.kind}`);
      if (inst.kind === 'FUT') largest = Math.max(largest, inst.lotsize * last);
    }
    expect(refused.slice(0, 5)).toEqual([]);
    // Every index the desk trades, futures and both option sides, was in the run.
    for (const n of ['NIFTY', 'BANKNIFTY', 'FINNIFTY', 'MIDCPNIFTY'])
      for (const k of ['FUT', 'CE', 'PE']) expect(names).toContain(`NFO:${n}:${k}`);
    for (const n of ['SENSEX', 'BANKEX'])
      for (const k of ['FUT', 'CE', 'PE']) expect(names).toContain(`BFO:${n}:${k}`);
    // The limit still guards: a fat-fingered ten lots of the dearest index future is refused.
    expect(largest * 10).toBeGreaterThan(limits.maxValuePerOrder);
  });
});
