import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_SPLIT_ORDERS,
  SplitPlanError,
  TOO_MANY_SPLIT_ORDERS_MESSAGE,
  planSplit,
} from '../../../src-main/shared/split-plan.js';

describe('planSplit', () => {
  it('five full children and a remainder make six orders, remainder last (spec §4.10 sample)', () => {
    expect(planSplit(105, 20)).toEqual([20, 20, 20, 20, 20, 5]);
  });

  it('an exact multiple has no remainder child', () => {
    expect(planSplit(100, 20)).toEqual([20, 20, 20, 20, 20]);
  });

  it('a quantity below the split size is one child', () => {
    expect(planSplit(7, 20)).toEqual([7]);
  });

  it('allows exactly 100 children', () => {
    expect(planSplit(100, 1)).toHaveLength(MAX_SPLIT_ORDERS);
    expect(planSplit(1999, 20)).toHaveLength(100);
  });

  it('refuses more than 100 children, counting the remainder', () => {
    expect(() => planSplit(5000, 20)).toThrow(TOO_MANY_SPLIT_ORDERS_MESSAGE);
    expect(() => planSplit(2001, 20)).toThrow(SplitPlanError);
    expect(() => planSplit(101, 1)).toThrow(TOO_MANY_SPLIT_ORDERS_MESSAGE);
  });

  it('does not allocate for absurd quantities', () => {
    expect(() => planSplit(Number.MAX_SAFE_INTEGER, 1)).toThrow(TOO_MANY_SPLIT_ORDERS_MESSAGE);
  });

  it('refuses non-positive or fractional inputs', () => {
    expect(() => planSplit(10, 0)).toThrow('Split size must be greater than 0');
    expect(() => planSplit(10, 2.5)).toThrow(SplitPlanError);
    expect(() => planSplit(0, 5)).toThrow('Invalid quantity or split size');
    expect(() => planSplit(-5, 5)).toThrow(SplitPlanError);
  });

  const plannable = fc
    .tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 1_000_000 }))
    .filter(([q, s]) => Math.ceil(q / s) <= MAX_SPLIT_ORDERS);

  it('property: children sum to the quantity, each at most splitsize, at most one smaller and it is last', () => {
    fc.assert(
      fc.property(plannable, ([q, s]) => {
        const children = planSplit(q, s);
        expect(children.reduce((a, b) => a + b, 0)).toBe(q);
        expect(children.every((c) => c > 0 && c <= s)).toBe(true);
        const smaller = children.map((c, i) => [c, i] as const).filter(([c]) => c < s);
        expect(smaller.length).toBeLessThanOrEqual(1);
        if (smaller[0]) expect(smaller[0][1]).toBe(children.length - 1);
        expect(children.length).toBe(Math.ceil(q / s));
      }),
    );
  });

  it('property: the limit is exactly "more than 100 children"', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 500 }), (q, s) => {
        const n = Math.ceil(q / s);
        if (n > MAX_SPLIT_ORDERS) expect(() => planSplit(q, s)).toThrow(TOO_MANY_SPLIT_ORDERS_MESSAGE);
        else expect(planSplit(q, s)).toHaveLength(n);
      }),
    );
  });
});
