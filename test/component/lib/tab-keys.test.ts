// The tab list keys the books', the focus area's and the settings sections' tab bars share.
import { describe, expect, it } from 'vitest';
import { tabKeyMove } from '../../../src-renderer/src/lib/tab-keys';

const TABS = [{ id: 'a' }, { id: 'b' }, { id: 'c' }] as const;
const press = (key: string) => new KeyboardEvent('keydown', { key, cancelable: true });

describe('tabKeyMove', () => {
  it('steps round with the arrows of its orientation and goes to the ends with Home and End', () => {
    expect(tabKeyMove(press('ArrowRight'), TABS, 'c')?.id).toBe('a');
    expect(tabKeyMove(press('ArrowLeft'), TABS, 'a')?.id).toBe('c');
    expect(tabKeyMove(press('Home'), TABS, 'b')?.id).toBe('a');
    expect(tabKeyMove(press('End'), TABS, 'a')?.id).toBe('c');
    expect(tabKeyMove(press('ArrowDown'), TABS, 'a', 'vertical')?.id).toBe('b');
    expect(tabKeyMove(press('ArrowUp'), TABS, 'a', 'vertical')?.id).toBe('c');
  });

  it('takes the key only when it moves: other keys, and the other orientation’s arrows, pass', () => {
    const moved = press('ArrowRight');
    tabKeyMove(moved, TABS, 'a');
    expect(moved.defaultPrevented).toBe(true);
    for (const [key, orientation] of [
      ['Enter', 'horizontal'],
      ['ArrowDown', 'horizontal'],
      ['ArrowRight', 'vertical'],
    ] as const) {
      const e = press(key);
      expect(tabKeyMove(e, TABS, 'a', orientation)).toBeUndefined();
      expect(e.defaultPrevented).toBe(false);
    }
  });
});
