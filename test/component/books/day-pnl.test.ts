import { describe, expect, it } from 'vitest';
import { dayPnl } from '../../../src-renderer/src/lib/day-pnl';

describe('the day P&L', () => {
  it('adds the booked realised M2M to the open MTM exactly, to the paisa', () => {
    // As binary floats -2.1 + 0.2 is -1.9000000000000001.
    expect(dayPnl({ realisedMtm: '-2.10' }, { totalMtm: 0.2 })).toBe('-1.9');
    expect(dayPnl({ realisedMtm: '1234567.45' }, { totalMtm: 0.1 })).toBe('1234567.55');
  });

  it('is unknown while either part is (no made-up zero)', () => {
    expect(dayPnl(undefined, { totalMtm: 10 })).toBeUndefined();
    expect(dayPnl({ realisedMtm: '5.00' }, { totalMtm: null })).toBeUndefined();
    expect(dayPnl({ realisedMtm: '5.00' }, undefined)).toBeUndefined();
  });
});
