import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src-main/contract/index.js';
import {
  NO_OPEN_POSITION_MESSAGE,
  POSITIONS_MATCHED_MESSAGE,
  decideSmartOrder,
  previewSmartOrder,
  type SmartOrderDecision,
} from '../../../src-main/shared/smart-order.js';

type Row = [
  action: Action,
  quantity: number,
  position_size: number,
  current: number,
  result: SmartOrderDecision,
];
const buy = (quantity: number): SmartOrderDecision => ({ kind: 'order', action: 'BUY', quantity });
const sell = (quantity: number): SmartOrderDecision => ({ kind: 'order', action: 'SELL', quantity });
const matched: SmartOrderDecision = { kind: 'none', message: POSITIONS_MATCHED_MESSAGE };
const noPosition: SmartOrderDecision = { kind: 'none', message: NO_OPEN_POSITION_MESSAGE };

// Spec §4.12, the eight rows that define the behaviour.
const SPEC_ROWS: Row[] = [
  ['BUY', 100, 0, 0, buy(100)],
  ['BUY', 100, 100, -100, buy(200)],
  ['BUY', 100, 100, 100, matched],
  ['BUY', 100, 200, 100, buy(100)],
  ['SELL', 100, 0, 0, sell(100)],
  ['SELL', 100, -100, 100, sell(200)],
  ['SELL', 100, -100, -100, matched],
  ['SELL', 100, -200, -100, sell(100)],
];

// gateway-behaviour §6, "consequences beyond the 8-row doc table".
const BEYOND_ROWS: Row[] = [
  ['BUY', 100, 50, 100, sell(50)],
  ['SELL', 100, 200, 100, buy(100)],
  ['BUY', 5, 0, 5, sell(5)],
  ['SELL', 5, 0, -5, buy(5)],
  ['SELL', 100, 100, 0, buy(100)],
  ['BUY', 100, -100, 0, sell(100)],
  ['BUY', 0, 0, 0, noPosition],
  ['BUY', 0, 100, 100, noPosition],
  ['SELL', 0, 100, 100, noPosition],
  ['BUY', 100, 0, 0, buy(100)],
  // The user guide's partial exit.
  ['BUY', 1, 50, 200, sell(150)],
];

describe('decideSmartOrder', () => {
  it.each(SPEC_ROWS)('spec row: %s Q=%d T=%d C=%d', (action, quantity, position_size, current, result) => {
    expect(decideSmartOrder({ action, quantity, position_size, current })).toEqual(result);
  });

  it.each(BEYOND_ROWS)(
    'beyond row: %s Q=%d T=%d C=%d',
    (action, quantity, position_size, current, result) => {
      expect(decideSmartOrder({ action, quantity, position_size, current })).toEqual(result);
    },
  );

  it('exits with quantity 0 too (action and quantity are ignored once a position exists)', () => {
    expect(decideSmartOrder({ action: 'BUY', quantity: 0, position_size: 0, current: 30 })).toEqual(sell(30));
    expect(decideSmartOrder({ action: 'SELL', quantity: 0, position_size: 0, current: -30 })).toEqual(
      buy(30),
    );
  });

  it('truncates a fractional target like int()', () => {
    expect(decideSmartOrder({ action: 'BUY', quantity: 1, position_size: 10.9, current: 0 })).toEqual(
      buy(10),
    );
  });

  it('previewSmartOrder is the same function', () => {
    expect(previewSmartOrder).toBe(decideSmartOrder);
  });

  const action = fc.constantFrom<Action>('BUY', 'SELL');
  const size = fc.integer({ min: -10_000, max: 10_000 });

  it('property: an order always moves the current position exactly to the target (unless T = C = 0)', () => {
    fc.assert(
      fc.property(action, fc.nat(10_000), size, size, (a, q, t, c) => {
        fc.pre(t !== 0 || c !== 0);
        const d = decideSmartOrder({ action: a, quantity: q, position_size: t, current: c });
        if (t === c) return d.kind === 'none';
        if (d.kind !== 'order') return false;
        return d.quantity > 0 && c + (d.action === 'BUY' ? d.quantity : -d.quantity) === t;
      }),
    );
  });

  it('property: with T = C = 0 the order is A x Q, or nothing when Q = 0', () => {
    fc.assert(
      fc.property(action, fc.nat(10_000), (a, q) => {
        const d = decideSmartOrder({ action: a, quantity: q, position_size: 0, current: 0 });
        return q === 0 ? d.kind === 'none' : d.kind === 'order' && d.action === a && d.quantity === q;
      }),
    );
  });
});
