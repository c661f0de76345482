// Remembered bounds land on a display that exists now, wholly visible.
import { describe, expect, it } from 'vitest';
import { boundsToSave, placeWindow } from '../../../src-main/desktop/window-bounds.js';

const primary = { x: 0, y: 0, width: 1920, height: 1050 };
const right = { x: 1920, y: 0, width: 1280, height: 1000 };

describe('placeWindow', () => {
  it('opens centred at the default size when nothing is remembered', () => {
    expect(placeWindow(null, [primary])).toBeUndefined();
    expect(placeWindow({ x: 1, y: 1, width: 400, height: 600 }, [])).toBeUndefined();
  });

  it('keeps bounds that are wholly on a display', () => {
    const b = { x: 100, y: 50, width: 420, height: 640 };
    expect(placeWindow(b, [primary, right])).toEqual(b);
    const onRight = { x: 2000, y: 100, width: 420, height: 640 };
    expect(placeWindow(onRight, [primary, right])).toEqual(onRight);
  });

  it('moves a window from an unplugged monitor onto the primary display', () => {
    expect(placeWindow({ x: 2500, y: 300, width: 420, height: 640 }, [primary])).toEqual({
      x: 1500,
      y: 300,
      width: 420,
      height: 640,
    });
    expect(placeWindow({ x: -5000, y: -5000, width: 420, height: 640 }, [primary])).toEqual({
      x: 0,
      y: 0,
      width: 420,
      height: 640,
    });
  });

  it('pulls a half-visible window onto the display it overlaps most', () => {
    expect(placeWindow({ x: 3000, y: 900, width: 420, height: 640 }, [primary, right])).toEqual({
      x: 2780,
      y: 360,
      width: 420,
      height: 640,
    });
  });

  it('shrinks a window larger than the display', () => {
    const small = { x: 0, y: 0, width: 1024, height: 600 };
    expect(placeWindow({ x: 0, y: 0, width: 3000, height: 2000 }, [small])).toEqual(small);
  });
});

describe('boundsToSave', () => {
  it('rounds to whole pixels and refuses bounds outside the settings range', () => {
    expect(boundsToSave({ x: 1.4, y: -2.6, width: 420.5, height: 640 })).toEqual({
      x: 1,
      y: -3,
      width: 421,
      height: 640,
    });
    expect(boundsToSave({ x: 0, y: 0, width: 100, height: 640 })).toBeUndefined();
    expect(boundsToSave({ x: Number.NaN, y: 0, width: 420, height: 640 })).toBeUndefined();
  });
});
