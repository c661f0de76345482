import { describe, expect, it } from 'vitest';
import { TOASTS_MAX, toastsThatFit } from '../../../src-renderer/src/lib/toast-room';

describe('toastsThatFit', () => {
  it('the default 1280×720 column (about 396 px) holds all three', () => {
    expect(toastsThatFit(396)).toBe(TOASTS_MAX);
  });
  it('a column shortened by a tall books panel holds fewer, down to none', () => {
    expect(toastsThatFit(330)).toBe(2);
    expect(toastsThatFit(290)).toBe(1);
    expect(toastsThatFit(240)).toBe(0);
    expect(toastsThatFit(100)).toBe(0);
  });
  it('never more than the most, and the most before the column is measured', () => {
    expect(toastsThatFit(2000)).toBe(TOASTS_MAX);
    expect(toastsThatFit(0)).toBe(TOASTS_MAX);
    expect(toastsThatFit(Number.NaN)).toBe(TOASTS_MAX);
  });
});
