// The global shortcut: registered as set, the default when another app holds it, and never silent.
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_GLOBAL_SHORTCUT } from '../../../src-main/contract/index.js';
import { bindGlobalShortcut } from '../../../src-main/desktop/global-shortcut.js';

function setup(taken: string[] = [], invalid: string[] = []) {
  const registered = new Map<string, () => void>();
  const gs = {
    register: (a: string, cb: () => void) => {
      if (invalid.includes(a)) throw new Error(`conversion failure for ${a}`);
      if (taken.includes(a)) return false;
      registered.set(a, cb);
      return true;
    },
    unregister: (a: string) => void registered.delete(a),
  };
  const action = vi.fn();
  const warn = vi.fn();
  const binding = bindGlobalShortcut(gs as never, action, { info: vi.fn(), warn });
  return { binding, registered, action, warn };
}

describe('bindGlobalShortcut', () => {
  it('registers the shortcut, which brings the ticket forward', () => {
    const t = setup();
    expect(t.binding.set('CommandOrControl+Alt+T')).toBe('CommandOrControl+Alt+T');
    t.registered.get('CommandOrControl+Alt+T')?.();
    expect(t.action).toHaveBeenCalledTimes(1);
  });

  it('replaces the previous shortcut, and empty turns it off', () => {
    const t = setup();
    t.binding.set('CommandOrControl+Alt+T');
    t.binding.set('CommandOrControl+Alt+Y');
    expect([...t.registered.keys()]).toEqual(['CommandOrControl+Alt+Y']);
    expect(t.binding.set('')).toBeNull();
    expect(t.registered.size).toBe(0);
  });

  it('falls back to the default when another application holds the shortcut, and says so', () => {
    const t = setup(['CommandOrControl+Alt+T']);
    expect(t.binding.set('CommandOrControl+Alt+T')).toBe(DEFAULT_GLOBAL_SHORTCUT);
    expect(t.warn).toHaveBeenCalledWith(
      'global shortcut taken by another application; using the default instead',
      { wanted: 'CommandOrControl+Alt+T', active: DEFAULT_GLOBAL_SHORTCUT },
    );
  });

  it('answers null and warns when neither can be had, or the accelerator is not understood', () => {
    const taken = setup([DEFAULT_GLOBAL_SHORTCUT]);
    expect(taken.binding.set(DEFAULT_GLOBAL_SHORTCUT)).toBeNull();
    expect(taken.warn).toHaveBeenCalledTimes(1);
    const bad = setup([DEFAULT_GLOBAL_SHORTCUT], ['Ctrl+Nope']);
    expect(bad.binding.set('Ctrl+Nope')).toBeNull();
    expect(bad.warn.mock.calls.map((c) => c[0])).toEqual([
      'global shortcut not understood',
      'global shortcut unavailable (taken by another application)',
    ]);
  });

  it('dispose releases the shortcut', () => {
    const t = setup();
    t.binding.set(DEFAULT_GLOBAL_SHORTCUT);
    t.binding.dispose();
    expect(t.registered.size).toBe(0);
  });
});
