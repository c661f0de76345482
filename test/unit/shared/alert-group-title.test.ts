// The one title rule of a split's or basket's alert, used by the core's OS notification and the
// renderer's Alerts entry.
import { describe, expect, it } from 'vitest';
import {
  basketGroupTitle,
  groupSummary,
  splitGroupTitle,
} from '../../../src-main/shared/alert-group-title.js';

describe('group titles', () => {
  it('names what was sent, quantities en-IN grouped', () => {
    expect(splitGroupTitle('buy', 105, 'INFY')).toBe('Split BUY 105 INFY');
    expect(splitGroupTitle('SELL', 150000, 'NIFTY 25 NOV FUT')).toBe('Split SELL 1,50,000 NIFTY 25 NOV FUT');
    expect(basketGroupTitle(1)).toBe('Basket of 1 leg');
    expect(basketGroupTitle(3)).toBe('Basket of 3 legs');
  });

  it('counts fills of the whole, then rejections and cancellations when there are any', () => {
    expect(
      groupSummary('Split BUY 105 INFY', 6, ['fill', 'fill', 'fill', 'fill', 'fill', 'fill'], 'fill'),
    ).toEqual({
      title: 'Split BUY 105 INFY: 6 of 6 filled',
      kind: 'fill',
    });
    expect(groupSummary('Basket of 3 legs', 3, ['fill', 'rejection', 'cancellation'], 'fill')).toEqual({
      title: 'Basket of 3 legs: 1 of 3 filled · 1 rejected · 1 cancelled',
      kind: 'rejection',
    });
    expect(groupSummary('Basket of 3 legs', 3, ['fill', 'partial'], 'partial').kind).toBe('partial');
    expect(groupSummary('Basket of 3 legs', 3, ['cancellation'], 'cancellation')).toEqual({
      title: 'Basket of 3 legs: 0 of 3 filled · 1 cancelled',
      kind: 'cancellation',
    });
  });
});
