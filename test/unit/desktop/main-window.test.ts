// The window's close-to-tray, visibility reporting and remembered bounds, with a fake window.
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachMainWindow, closeDecision } from '../../../src-main/desktop/main-window.js';

class FakeWindow extends EventEmitter {
  visible = false;
  minimized = false;
  destroyed = false;
  onTop = false;
  bounds = { x: 10, y: 20, width: 420, height: 640 };
  calls: string[] = [];
  show() {
    this.calls.push('show');
    this.visible = true;
    this.emit('show');
  }
  hide() {
    this.calls.push('hide');
    this.visible = false;
    this.emit('hide');
  }
  focus() {
    this.calls.push('focus');
  }
  restore() {
    this.calls.push('restore');
    this.minimized = false;
    this.emit('restore');
  }
  isMinimized = () => this.minimized;
  isVisible = () => this.visible;
  isDestroyed = () => this.destroyed;
  getNormalBounds = () => this.bounds;
  setAlwaysOnTop(on: boolean) {
    this.onTop = on;
  }
}

function setup(o: { quitting?: boolean; startHidden?: boolean } = {}) {
  const w = new FakeWindow();
  const visibility: boolean[] = [];
  const saved: unknown[] = [];
  const state = { quitting: o.quitting ?? false };
  const mw = attachMainWindow({
    window: w as never,
    quitting: () => state.quitting,
    reportVisibility: (v) => visibility.push(v),
    saveBounds: (b) => saved.push(b),
    startHidden: o.startHidden ?? false,
    saveDelayMs: 500,
    logger: { warn: vi.fn() },
  });
  const close = () => {
    const e = { prevented: false, preventDefault: () => (e.prevented = true) };
    w.emit('close', e);
    return e.prevented;
  };
  return { w, mw, visibility, saved, state, close };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('closeDecision', () => {
  it('hides to the tray unless quitting', () => {
    expect(closeDecision(false)).toBe('hide');
    expect(closeDecision(true)).toBe('close');
  });
});

describe('attachMainWindow', () => {
  it('shows the window when ready, unless started hidden at login', () => {
    const shown = setup();
    shown.w.emit('ready-to-show');
    expect(shown.w.visible).toBe(true);
    expect(shown.visibility).toEqual([true]);
    const hidden = setup({ startHidden: true });
    hidden.w.emit('ready-to-show');
    expect(hidden.w.visible).toBe(false);
    expect(hidden.visibility).toEqual([false]);
  });

  it('closing hides the window to the tray; while quitting it really closes', () => {
    const t = setup();
    t.w.emit('ready-to-show');
    expect(t.close()).toBe(true);
    expect(t.w.visible).toBe(false);
    t.state.quitting = true;
    t.w.show();
    expect(t.close()).toBe(false);
  });

  it('reports visibility changes to the core, once per change', () => {
    const t = setup();
    t.w.emit('ready-to-show');
    t.w.emit('show');
    t.w.emit('minimize');
    t.w.emit('hide');
    t.w.emit('restore');
    expect(t.visibility).toEqual([true, false, true]);
  });

  it('saves the bounds after moves and resizes settle, and at once on close', () => {
    const t = setup();
    t.w.emit('moved');
    t.w.bounds = { x: 100.4, y: 200.6, width: 500, height: 700 };
    t.w.emit('resized');
    vi.advanceTimersByTime(499);
    expect(t.saved).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(t.saved).toEqual([{ x: 100, y: 201, width: 500, height: 700 }]);
    t.close();
    expect(t.saved).toHaveLength(2);
  });

  it('show() restores a minimised window, shows and focuses it', () => {
    const t = setup();
    t.w.minimized = true;
    t.mw.show();
    expect(t.w.calls).toEqual(['restore', 'show', 'focus']);
    t.mw.setAlwaysOnTop(true);
    expect(t.w.onTop).toBe(true);
    t.w.destroyed = true;
    t.w.calls.length = 0;
    t.mw.show();
    expect(t.w.calls).toEqual([]);
  });
});
