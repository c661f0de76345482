// Dragging a bracket's line: a press near it takes it (the chart under it does not pan), the line
// follows the pointer on the tick, the drop says where it landed; a press away from every line is the
// chart's, and Escape puts the line back.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { attachLineDrag } from '../../../src-renderer/src/lib/line-drag';

afterEach(() => document.body.replaceChildren());

// 1 px is 0.1 rupee, 1000 at y 0 (a price scale going down the container).
const toY = (p: number) => (1000 - p) * 10;
const toPrice = (y: number) => 1000 - y / 10;

function setup() {
  const host = document.createElement('div');
  document.body.append(host);
  host.getBoundingClientRect = () => ({ top: 50, left: 0 }) as DOMRect;
  const moved: [string, number][] = [];
  const drop = vi.fn();
  const hold = vi.fn();
  const chartPress = vi.fn();
  const inner = document.createElement('canvas');
  host.append(inner);
  inner.addEventListener('pointerdown', chartPress);
  const stop = attachLineDrag(host, {
    lines: () => [
      { key: 'E1:stop', price: 990, tick: 0.05 },
      { key: 'E1:target', price: 995, tick: 0.05 },
    ],
    toY,
    toPrice,
    move: (k, p) => void moved.push([k, p]),
    drop,
    hold,
  });
  return { host, inner, moved, drop, hold, chartPress, stop };
}

const pointer = (type: string, clientY: number) =>
  new PointerEvent(type, { bubbles: true, cancelable: true, button: 0, pointerId: 1, clientY });

describe('dragging a price line', () => {
  it('takes the line near the press, follows on the tick and drops at the rounded price', () => {
    const { inner, moved, drop, hold, chartPress } = setup();
    // The stop at 990 is y 100 in the container, 150 on the page; the press is 3 px off it.
    const press = pointer('pointerdown', 153);
    inner.dispatchEvent(press);
    expect(press.defaultPrevented).toBe(true);
    expect(chartPress).not.toHaveBeenCalled();
    expect(hold).toHaveBeenLastCalledWith(true);
    // Page y 183.37 is 133.37 in the container: 986.663, so 986.65 on the 0.05 tick.
    inner.dispatchEvent(pointer('pointermove', 183.37));
    inner.dispatchEvent(pointer('pointerup', 183.37));
    expect(moved.at(-1)).toEqual(['E1:stop', 986.65]);
    expect(drop).toHaveBeenCalledWith('E1:stop', 990, 986.65);
    expect(hold).toHaveBeenLastCalledWith(false);
  });

  it('leaves a press away from the lines to the chart', () => {
    const { inner, drop, chartPress } = setup();
    const press = pointer('pointerdown', 400);
    inner.dispatchEvent(press);
    expect(press.defaultPrevented).toBe(false);
    expect(chartPress).toHaveBeenCalledTimes(1);
    inner.dispatchEvent(pointer('pointerup', 420));
    expect(drop).not.toHaveBeenCalled();
  });

  it('puts the line back on Escape and sends nothing', () => {
    const { inner, moved, drop } = setup();
    inner.dispatchEvent(pointer('pointerdown', 100)); // the target at 995: y 50 in the container
    inner.dispatchEvent(pointer('pointermove', 130));
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    inner.dispatchEvent(pointer('pointerup', 130));
    expect(moved).toEqual([
      ['E1:target', 992],
      ['E1:target', 995],
    ]);
    expect(drop).not.toHaveBeenCalled();
  });

  it('a drop where it started sends nothing', () => {
    const { inner, drop } = setup();
    inner.dispatchEvent(pointer('pointerdown', 151));
    inner.dispatchEvent(pointer('pointerup', 150.2));
    expect(drop).not.toHaveBeenCalled();
  });
});
