// Positions grouped by strategy: a header per strategy with open legs, its legs' rows (matched by
// symbol and exchange, the strategy's product first), then Other positions with what no strategy
// holds; a symbol in two strategies shows under each with its own share, and the split is said.
import { describe, expect, it } from 'vitest';
import type { PositionView, StrategyLegView, StrategyView } from '@contract';
import {
  groupByStrategy,
  legMtm,
  positionOfLeg,
  type GroupedRow,
  type PositionRow,
} from '../../../src-renderer/src/lib/strategy-groups';
import { legView, strategyView } from '../../support/component/strategy-views';

const CE = 'NIFTY25NOV2624000CE';
const PE = 'NIFTY25NOV2623000PE';

const leg = (over: Partial<StrategyLegView>): StrategyLegView => legView({ symbol: CE, ...over });
const strategy = (over: Partial<StrategyView>): StrategyView =>
  strategyView({
    name: 'Short strangle',
    product: 'NRML',
    legs: [leg({}), leg({ symbol: PE, ltp: 50, averagePrice: '60.00' })],
    unrealised: '1500.00',
    pnl: '1500.00',
    ...over,
  });

const position = (over: Partial<PositionView>): PositionView => ({
  symbol: CE,
  exchange: 'NFO',
  product: 'NRML',
  quantity: -75,
  averagePrice: 100,
  ltp: 90,
  mtm: 750,
  ...over,
});

const kinds = (rows: GroupedRow[]) =>
  rows.map((r) => (r.kind === 'position' ? `${r.shown.symbol}:${r.shown.quantity}` : r.kind));

describe('groupByStrategy', () => {
  it('puts each strategy with open legs first, its legs under it, then Other positions', () => {
    const positions = [
      position({}),
      position({ symbol: PE, mtm: 750 }),
      position({ symbol: 'SBIN', exchange: 'NSE', product: 'MIS', quantity: 10, averagePrice: 800 }),
    ];
    const rows = groupByStrategy(positions, [strategy({})]);
    expect(kinds(rows)).toEqual(['group', `${CE}:-75`, `${PE}:-75`, 'other', 'SBIN:10']);
    const first = rows[1] as PositionRow;
    // The whole position is this strategy's: shown as it is, no split to explain.
    expect(first.shown).toBe(positions[0]);
    expect(first.split).toBeUndefined();
    expect(first.key).toBe(`strategy:s1:NFO:${CE}:NRML`);
  });

  it('leaves out closed strategies and those with nothing open, and Other positions when empty', () => {
    const closed = strategy({ id: 'c', state: 'closed', legs: [leg({ open: 0 })] });
    expect(groupByStrategy([], [closed])).toEqual([]);
    const rows = groupByStrategy([position({}), position({ symbol: PE })], [strategy({}), closed]);
    expect(kinds(rows)).toEqual(['group', `${CE}:-75`, `${PE}:-75`]);
  });

  it('splits a symbol held by two strategies: each shows its own share, the rest under Other', () => {
    const a = strategy({ id: 'a', name: 'Strangle A', legs: [leg({ open: -75 })] });
    const b = strategy({
      id: 'b',
      name: 'Spread B',
      createdAt: '2026-11-29T11:00:00+05:30',
      legs: [leg({ open: -150, averagePrice: '110.00', ltp: 90 })],
    });
    const rows = groupByStrategy([position({ quantity: -300, averagePrice: 105, mtm: 4500 })], [b, a]);
    // Oldest strategy first.
    expect(kinds(rows)).toEqual(['group', `${CE}:-75`, 'group', `${CE}:-150`, 'other', `${CE}:-75`]);
    const inA = rows[1] as PositionRow;
    expect(inA.split).toContain('Strangle A holds -75');
    expect(inA.split).toContain('net -300');
    expect(inA.split).toContain('Spread B -150');
    expect(inA.split).toContain('-75 outside strategies');
    // The share's P&L at its own average: (90 − 100) × −75.
    expect(inA.shown.mtm).toBe(750);
    const inB = rows[3] as PositionRow;
    expect(inB.shown.mtm).toBe(3000);
    const rest = rows[5] as PositionRow;
    expect(rest.key).toBe(`NFO:${CE}:NRML`);
    expect(rest.shown.mtm).toBe(1125);
    expect(rest.split).toContain('-75 outside them');
    // The row's actions act on the account's whole position.
    expect(rest.position.quantity).toBe(-300);
  });

  it('keeps a leg the positions book does not list yet, from the leg itself', () => {
    const rows = groupByStrategy([], [strategy({ legs: [leg({})] })]);
    const r = rows[1] as PositionRow;
    expect(r.shown).toMatchObject({ symbol: CE, quantity: -75, product: 'NRML', mtm: 750 });
    expect(r.split).toContain('does not list it yet');
  });
});

describe('positionOfLeg', () => {
  it("prefers the strategy's product, then an open row", () => {
    const mis = position({ product: 'MIS', quantity: -75 });
    const nrml = position({ product: 'NRML', quantity: 0 });
    expect(positionOfLeg([mis, nrml], { product: 'NRML' }, leg({}))).toBe(nrml);
    expect(positionOfLeg([nrml, mis], { product: 'MIS' }, leg({}))).toBe(mis);
    expect(positionOfLeg([mis], { product: 'NRML' }, leg({}))).toBe(mis);
    expect(positionOfLeg([mis], { product: 'NRML' }, leg({ exchange: 'BFO' }))).toBeUndefined();
  });
});

describe('legMtm', () => {
  it('is the open quantity at the last price against the average, to the paisa', () => {
    expect(legMtm({ open: 75, averagePrice: '100.10', ltp: 100.15 })).toBe(3.75);
    expect(legMtm({ open: -75, averagePrice: '100.00', ltp: null })).toBeNull();
    expect(legMtm({ open: -75, averagePrice: null, ltp: 90 })).toBeNull();
  });
});
