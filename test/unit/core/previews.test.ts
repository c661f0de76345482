// Previews use the paper gateway's own decision code: a table of the six smart-order rules, and the
// split plan with its remainder and limit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SmartOrderIpcInput, SplitOrderIpcInput } from '../../../src-main/contract/index.js';
import { smartPreview, splitPreview } from '../../../src-main/core/previews/index.js';
import { decideSmartOrder } from '../../../src-main/shared/smart-order.js';

const leg = {
  exchange: 'NSE' as const,
  symbol: 'SBIN',
  pricetype: 'MARKET' as const,
  product: 'MIS' as const,
  price: 0,
  trigger_price: 0,
  disclosed_quantity: 0,
};
const smart = (action: 'BUY' | 'SELL', quantity: number, position_size: number): SmartOrderIpcInput => ({
  ...leg,
  action,
  quantity,
  position_size,
});

describe('smartPreview', () => {
  it.each([
    [smart('BUY', 10, 0), 0, { kind: 'order', order: { action: 'BUY', quantity: 10 } }],
    [smart('BUY', 10, 50), 50, { kind: 'none' }],
    [smart('SELL', 0, 0), 30, { kind: 'order', order: { action: 'SELL', quantity: 30 } }],
    [smart('BUY', 0, 0), -20, { kind: 'order', order: { action: 'BUY', quantity: 20 } }],
    [smart('BUY', 5, 100), 40, { kind: 'order', order: { action: 'BUY', quantity: 60 } }],
    [smart('BUY', 5, -10), 40, { kind: 'order', order: { action: 'SELL', quantity: 50 } }],
    [smart('BUY', 0, 0), 0, { kind: 'none', message: expect.stringMatching(/No OpenPosition Found/) }],
  ])('%j with current %i', (input, current, decision) => {
    expect(smartPreview(input, current)).toMatchObject({ current, target: input.position_size, decision });
  });

  it('agrees with the paper gateway decision for any input (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('BUY' as const, 'SELL' as const),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: -10_000, max: 10_000 }),
        fc.integer({ min: -10_000, max: 10_000 }),
        (action, quantity, target, current) => {
          const p = smartPreview(smart(action, quantity, target), current).decision;
          const d = decideSmartOrder({ action, quantity, position_size: target, current });
          if (d.kind === 'none') expect(p).toEqual(d);
          else expect(p).toMatchObject({ kind: 'order', order: { action: d.action, quantity: d.quantity } });
        },
      ),
    );
  });
});

describe('splitPreview', () => {
  const split = (quantity: number, splitsize: number): SplitOrderIpcInput => ({
    ...leg,
    action: 'BUY',
    quantity,
    splitsize,
  });
  it('lists full children then the remainder', () => {
    const r = splitPreview(split(1050, 500));
    expect(r.ok && r.value.children.map((c) => c.quantity)).toEqual([500, 500, 50]);
    expect(r.ok && r.value.children[0]).toEqual({ ...leg, action: 'BUY', quantity: 500 });
  });
  it('refuses a plan over 100 children with the gateway message', () => {
    expect(splitPreview(split(101, 1))).toEqual({
      ok: false,
      message: 'Total number of orders would exceed maximum limit of 100',
    });
  });
});
