// Where a bracket's stop and target rest: from the fill, on the tick, toward the fill, and never on
// the wrong side of it.
import { describe, expect, it } from 'vitest';
import { ProtectionSpec } from '../../../../src-main/contract/index.js';
import { protectiveLevels } from '../../../../src-main/core/protection/index.js';

const spec = (s: unknown) => ProtectionSpec.parse(s);

describe('protectiveLevels', () => {
  it('puts a BUY entry’s stop below the fill and its target above, by points', () => {
    const r = protectiveLevels(
      { action: 'BUY', price: 812.35, tick: 0.05 },
      spec({ stop: { by: 'points', value: '10' }, target: { by: 'points', value: '20' } }),
    );
    expect(r).toEqual({ ok: true, levels: { stop: 802.35, target: 832.35 } });
  });

  it('mirrors them for a SELL entry', () => {
    const r = protectiveLevels(
      { action: 'SELL', price: 812.35, tick: 0.05 },
      spec({ stop: { by: 'points', value: '10' }, target: { by: 'points', value: '20' } }),
    );
    expect(r).toEqual({ ok: true, levels: { stop: 822.35, target: 792.35 } });
  });

  it('rounds a percentage to the tick toward the fill: never a wider stop nor a further target', () => {
    // 1 % of 812.35 is 8.1235: a BUY's stop 804.2265 → 804.25, target 820.4735 → 820.45.
    const buy = protectiveLevels(
      { action: 'BUY', price: 812.35, tick: 0.05 },
      spec({ stop: { by: 'percent', value: '1' }, target: { by: 'percent', value: '1' } }),
    );
    expect(buy).toEqual({ ok: true, levels: { stop: 804.25, target: 820.45 } });
    const sell = protectiveLevels(
      { action: 'SELL', price: 812.35, tick: 0.05 },
      spec({ stop: { by: 'percent', value: '1' }, target: { by: 'percent', value: '1' } }),
    );
    expect(sell).toEqual({ ok: true, levels: { stop: 820.45, target: 804.25 } });
  });

  it('works from an averaged fill off the tick, exactly (no binary fractions)', () => {
    // Fills of 10 @ 100.05 and 20 @ 100.10 average 100.0833…; the stop 5 points under is 95.0833 → 95.10.
    const r = protectiveLevels(
      { action: 'BUY', price: 100.08333333, tick: 0.05 },
      spec({ stop: { by: 'points', value: '5' } }),
    );
    expect(r).toEqual({ ok: true, levels: { stop: 95.1 } });
  });

  it('takes an absolute price on the right side and on the tick, and refuses one that is not', () => {
    const fill = { action: 'BUY' as const, price: 812.35, tick: 0.05 };
    expect(protectiveLevels(fill, spec({ stop: { by: 'price', value: '800' } }))).toEqual({
      ok: true,
      levels: { stop: 800 },
    });
    expect(protectiveLevels(fill, spec({ stop: { by: 'price', value: '820' } }))).toEqual({
      ok: false,
      message: 'the stop 820 of a BUY must be below its fill 812.35',
    });
    expect(protectiveLevels(fill, spec({ target: { by: 'price', value: '800.03' } }))).toEqual({
      ok: false,
      message: 'the target 800.03 is not a multiple of the tick 0.05',
    });
  });

  it('refuses a distance that rounds onto the fill, or below zero', () => {
    const fill = { action: 'BUY' as const, price: 10, tick: 0.05 };
    expect(protectiveLevels(fill, spec({ target: { by: 'points', value: '0.01' } }))).toMatchObject({
      ok: false,
      message: 'the target 10 of a BUY must be above its fill 10',
    });
    expect(protectiveLevels(fill, spec({ stop: { by: 'points', value: '12' } }))).toMatchObject({
      ok: false,
      message: 'the stop would be at or below 0',
    });
  });
});

describe('ProtectionSpec', () => {
  it('needs a stop or a target, and a stop for trailing or break-even', () => {
    expect(ProtectionSpec.safeParse({}).success).toBe(false);
    expect(ProtectionSpec.safeParse({ target: { by: 'points', value: '5' }, trailStep: '1' }).success).toBe(
      false,
    );
    expect(ProtectionSpec.safeParse({ stop: { by: 'points', value: '0' } }).success).toBe(false);
    expect(ProtectionSpec.safeParse({ stop: { by: 'points', value: '1e3' } }).success).toBe(false);
    expect(
      ProtectionSpec.parse({ stop: { by: 'points', value: '10' }, breakEven: { trigger: '15' } }).breakEven,
    ).toEqual({ trigger: '15', offset: '0' });
  });
});
