// Strike ladders are centred on the current price: the market anchors every underlying's price path
// at the master's base price on the day it starts, so the at-the-money strike of every option chain
// sits in the middle of its ladder, whatever the seed or date (the path alone wanders up to ~30%).
import { describe, expect, it } from 'vitest';
import type { Instrument } from '../../../src-main/paper/instruments/instrument.js';
import { buildMaster } from '../../../src-main/paper/instruments/master.js';
import { createMarket, ManualClock } from '../../../src-main/paper/market/index.js';

interface Chain {
  min: number;
  max: number;
  option: Instrument;
}

function chainsOf(all: readonly Instrument[]): Map<string, Chain> {
  const chains = new Map<string, Chain>();
  for (const r of all) {
    if (r.kind !== 'CE') continue;
    const k = `${r.exchange}|${r.name}|${r.expiry}`;
    const c = chains.get(k);
    if (!c) chains.set(k, { min: r.strike, max: r.strike, option: r });
    else {
      c.min = Math.min(c.min, r.strike);
      c.max = Math.max(c.max, r.strike);
    }
  }
  return chains;
}

describe('strike ladders and the current price', () => {
  it.each([
    [1, '2026-11-23T10:00:00+05:30'],
    [7, '2026-11-20T10:00:00+05:30'],
    [12, '2027-03-02T15:00:00+05:30'],
    [99, '2025-06-30T23:00:00+05:30'],
  ])('seed %i at %s: every chain brackets the underlying, ATM in the middle of the ladder', (seed, at) => {
    const nowMs = Date.parse(at);
    const today = new Date(nowMs + 19_800_000).toISOString().slice(0, 10);
    const master = buildMaster({ seed, today });
    const market = createMarket({ underlyings: master.underlyings, clock: new ManualClock(nowMs), seed });
    // The price an option is priced from: the index/equity row, or (MCX, CDS) the future's own series.
    const spotRow = new Map<string, Instrument>();
    for (const r of master.all)
      if (!spotRow.has(r.underlyingKey) && r.kind !== 'CE' && r.kind !== 'PE')
        spotRow.set(r.underlyingKey, r);
    const off: string[] = [];
    let checked = 0;
    for (const [k, c] of chainsOf(master.all)) {
      const row = spotRow.get(c.option.underlyingKey);
      if (!row) continue;
      const spot = market.lastPrice(row);
      const span = c.max - c.min;
      checked++;
      if (spot < c.min + 0.2 * span || spot > c.max - 0.2 * span)
        off.push(`${k}: ${spot} in ${c.min}..${c.max}`);
    }
    expect(checked).toBeGreaterThan(500);
    expect(off.slice(0, 5)).toEqual([]);
  });

  it('the path passes through the base price at the start of the day the market was created', () => {
    const nowMs = Date.parse('2026-11-20T10:00:00+05:30');
    const master = buildMaster({ seed: 3, today: '2026-11-20' });
    const market = createMarket({ underlyings: master.underlyings, clock: new ManualClock(nowMs), seed: 3 });
    const midnight = Date.parse('2026-11-20T00:00:00+05:30') / 1000;
    for (const sym of ['RELIANCE', 'SBIN', 'TCS']) {
      const inst = master.get('NSE', sym)!;
      const base = master.underlyings.get(inst.underlyingKey)!.basePrice;
      const first = market.bars(inst, '1m', midnight, midnight + 59)[0]!;
      expect(Math.abs(first.open / base - 1), sym).toBeLessThan(0.005);
    }
  });
});
