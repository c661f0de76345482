// How the stop trails: whole steps of the best favourable move, never back, break-even with its
// offset, and never to a price the market has already crossed.
import { describe, expect, it } from 'vitest';
import { nextStop, type TrailInput } from '../../../../src-main/core/protection/index.js';

const long = (over: Partial<TrailInput>): TrailInput => ({
  fill: { action: 'BUY', price: 100, tick: 0.05 },
  spec: { trailStep: '2' },
  initialStop: 95,
  currentStop: 95,
  best: 100,
  ltp: 100,
  ...over,
});

describe('nextStop', () => {
  it('moves a BUY’s stop up one step per whole step of favourable move', () => {
    expect(nextStop(long({ best: 101.9, ltp: 101.9 }))).toBeUndefined();
    expect(nextStop(long({ best: 102, ltp: 102 }))).toBe(97);
    expect(nextStop(long({ best: 105.5, ltp: 105.5 }))).toBe(99);
  });

  it('never moves it back when the price pulls back (the best price is what counts)', () => {
    // Stop already at 99 after a run to 105.5; the price falls to 101: nothing to send.
    expect(nextStop(long({ currentStop: 99, best: 105.5, ltp: 101 }))).toBeUndefined();
    // A lower best than the one that set the stop: still nothing.
    expect(nextStop(long({ currentStop: 99, best: 103, ltp: 103 }))).toBeUndefined();
  });

  it('mirrors for a SELL entry: the stop comes down', () => {
    const short: TrailInput = {
      fill: { action: 'SELL', price: 100, tick: 0.05 },
      spec: { trailStep: '2' },
      initialStop: 105,
      currentStop: 105,
      best: 95.9,
      ltp: 96,
    };
    expect(nextStop(short)).toBe(101);
    expect(nextStop({ ...short, currentStop: 101, best: 97, ltp: 99 })).toBeUndefined();
  });

  it('keeps a step that is not a whole number of ticks on the tick, short of the step', () => {
    const r = nextStop(long({ spec: { trailStep: '0.12' }, best: 100.12, ltp: 100.12 }));
    expect(r).toBe(95.1);
  });

  it('moves the stop to the entry plus the offset once the break-even trigger is reached', () => {
    const be = { breakEven: { trigger: '3', offset: '0.2' } };
    expect(nextStop(long({ spec: be, best: 102.95, ltp: 102.95 }))).toBeUndefined();
    expect(nextStop(long({ spec: be, best: 103, ltp: 103 }))).toBe(100.2);
    // Already there: nothing more.
    expect(nextStop(long({ spec: be, currentStop: 100.2, best: 110, ltp: 110 }))).toBeUndefined();
    // An averaged fill off the tick: the stop goes to the tick at or beyond it, never short of it.
    expect(
      nextStop(
        long({
          fill: { action: 'BUY', price: 100.0833, tick: 0.05 },
          spec: { breakEven: { trigger: '3', offset: '0' } },
          best: 104,
          ltp: 104,
        }),
      ),
    ).toBe(100.1);
  });

  it('takes whichever of trailing and break-even is further in favour', () => {
    const both = { trailStep: '1', breakEven: { trigger: '2', offset: '0' } };
    // Best 102: trailing 95 + 2 = 97; break-even 100: 100 wins.
    expect(nextStop(long({ spec: both, best: 102, ltp: 102 }))).toBe(100);
    // Best 107: trailing 102 beats break-even.
    expect(nextStop(long({ spec: both, currentStop: 100, best: 107, ltp: 107 }))).toBe(102);
  });

  it('does not put the stop at or past the last price (it would fire at once)', () => {
    // Break-even at 100.2 while the market has fallen back to 100.1: wait.
    const be = { breakEven: { trigger: '3', offset: '0.2' } };
    expect(nextStop(long({ spec: be, best: 104, ltp: 100.1 }))).toBeUndefined();
    expect(nextStop(long({ spec: be, best: 104, ltp: 100.2 }))).toBeUndefined();
    expect(nextStop(long({ spec: be, best: 104, ltp: 100.25 }))).toBe(100.2);
  });
});
