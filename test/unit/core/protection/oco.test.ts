// The core-held one-cancels-other: from the book's word on the entry and both legs, exactly what
// to send so the working legs cover the open quantity, nothing while an answer is outstanding, and
// the hazards (both legs filled, a refused stop) said rather than acted on.
import { describe, expect, it } from 'vitest';
import { openQuantity, planOco, type LegOrder } from '../../../../src-main/core/protection/index.js';

const working = (orderid: string, quantity: number, filled = 0): LegOrder => ({
  status: 'working',
  orderid,
  quantity,
  filled,
});

describe('planOco', () => {
  it('places both legs for the filled quantity of a full fill', () => {
    expect(planOco({ entryFilled: 100, stop: [], target: [] })).toEqual([
      { kind: 'place', leg: 'stop', quantity: 100 },
      { kind: 'place', leg: 'target', quantity: 100 },
    ]);
  });

  it('places nothing before any fill, and follows partial fills of the entry by modifying', () => {
    expect(planOco({ entryFilled: 0, stop: [], target: [] })).toEqual([]);
    expect(planOco({ entryFilled: 40, stop: [], target: [] })).toEqual([
      { kind: 'place', leg: 'stop', quantity: 40 },
      { kind: 'place', leg: 'target', quantity: 40 },
    ]);
    expect(planOco({ entryFilled: 100, stop: [working('S1', 40)], target: [working('T1', 40)] })).toEqual([
      { kind: 'modify', leg: 'stop', orderid: 'S1', quantity: 100 },
      { kind: 'modify', leg: 'target', orderid: 'T1', quantity: 100 },
    ]);
    expect(planOco({ entryFilled: 100, stop: [working('S1', 100)], target: [working('T1', 100)] })).toEqual(
      [],
    );
  });

  it('reduces the stop as the target fills in part, and cancels it when the target is done', () => {
    expect(
      planOco({ entryFilled: 100, stop: [working('S1', 100)], target: [working('T1', 100, 30)] }),
    ).toEqual([{ kind: 'modify', leg: 'stop', orderid: 'S1', quantity: 70 }]);
    expect(
      planOco({ entryFilled: 100, stop: [working('S1', 70)], target: [{ status: 'ended', filled: 100 }] }),
    ).toEqual([{ kind: 'cancel', leg: 'stop', orderid: 'S1' }]);
  });

  it('cancels the target when the stop fills', () => {
    expect(
      planOco({ entryFilled: 100, stop: [{ status: 'ended', filled: 100 }], target: [working('T1', 100)] }),
    ).toEqual([{ kind: 'cancel', leg: 'target', orderid: 'T1' }]);
  });

  it('sends nothing for a leg whose last request has no answer yet: never twice', () => {
    expect(planOco({ entryFilled: 100, stop: [{ status: 'pending' }], target: [] })).toEqual([
      { kind: 'place', leg: 'target', quantity: 100 },
    ]);
    expect(
      planOco({
        entryFilled: 100,
        stop: [working('S1', 100), { status: 'pending' }],
        target: [{ status: 'ended', filled: 100 }],
      }),
    ).toEqual([]);
  });

  it('covers a later fill of the entry with a new order on a side whose order is done', () => {
    // 50 filled, target 50 filled (flat), stop cancelled; then the entry fills 50 more.
    expect(
      planOco({
        entryFilled: 100,
        stop: [{ status: 'ended', filled: 0 }],
        target: [{ status: 'ended', filled: 50 }],
      }),
    ).toEqual([
      { kind: 'place', leg: 'stop', quantity: 50 },
      { kind: 'place', leg: 'target', quantity: 50 },
    ]);
  });

  it('says when both legs filled (the position overshot) and cancels what still rests', () => {
    const b = {
      entryFilled: 100,
      stop: [{ status: 'ended', filled: 100 } as const],
      target: [working('T1', 100, 60)],
    };
    expect(openQuantity(b)).toBe(-60);
    expect(planOco(b)).toEqual([
      { kind: 'overshoot', excess: 60 },
      { kind: 'cancel', leg: 'target', orderid: 'T1' },
    ]);
  });

  it('reports a refused stop as unprotected, and does not place it again by itself', () => {
    expect(
      planOco({
        entryFilled: 100,
        stop: [{ status: 'refused', filled: 0, reason: 'Trigger price out of the price band' }],
        target: [working('T1', 100)],
      }),
    ).toEqual([
      { kind: 'unprotected', leg: 'stop', quantity: 100, reason: 'Trigger price out of the price band' },
    ]);
  });

  it('keeps one working order per side and cancels any other', () => {
    expect(planOco({ entryFilled: 100, stop: [working('S1', 100), working('S2', 100)] })).toEqual([
      { kind: 'cancel', leg: 'stop', orderid: 'S2' },
    ]);
  });

  describe('with a freeze quantity', () => {
    it('places a side in parts of at most the freeze quantity', () => {
      expect(planOco({ entryFilled: 4_000, freeze: 1_800, stop: [] })).toEqual([
        { kind: 'place', leg: 'stop', quantity: 1_800 },
        { kind: 'place', leg: 'stop', quantity: 1_800 },
        { kind: 'place', leg: 'stop', quantity: 400 },
      ]);
    });

    it('grows the working parts up to the freeze before placing another', () => {
      expect(planOco({ entryFilled: 3_000, freeze: 1_800, stop: [working('S1', 1_000)] })).toEqual([
        { kind: 'modify', leg: 'stop', orderid: 'S1', quantity: 1_800 },
        { kind: 'place', leg: 'stop', quantity: 1_200 },
      ]);
    });

    it('shrinks the parts as the other side fills, oldest kept, the rest cancelled', () => {
      expect(
        planOco({
          entryFilled: 3_600,
          freeze: 1_800,
          stop: [working('S1', 1_800), working('S2', 1_800)],
          target: [working('T1', 1_800, 1_800 - 500), working('T2', 1_800, 1_600)],
        }),
      ).toEqual([
        // 3,600 filled, 2,900 out through the target: 700 open, which the target's rests cover.
        { kind: 'modify', leg: 'stop', orderid: 'S1', quantity: 700 },
        { kind: 'cancel', leg: 'stop', orderid: 'S2' },
      ]);
    });

    it('tells a refused part as unprotected for what is left uncovered, placing nothing again', () => {
      expect(
        planOco({
          entryFilled: 3_600,
          freeze: 1_800,
          stop: [working('S1', 1_800), { status: 'refused', filled: 0, reason: 'margin' }],
        }),
      ).toEqual([{ kind: 'unprotected', leg: 'stop', quantity: 1_800, reason: 'margin' }]);
    });
  });
});
