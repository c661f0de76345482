// Shell settings: the schema (accelerators, bounds) and applying only what changed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_GLOBAL_SHORTCUT,
  DEFAULT_SETTINGS,
  SettingsPatch,
  ShellSettings,
  acceleratorProblem,
} from '../../../src-main/contract/index.js';
import { createSettingsStore } from '../../../src-main/core/settings/index.js';
import { shellSettingsApplier } from '../../../src-main/desktop/shell-settings.js';

describe('acceleratorProblem', () => {
  it('accepts modifiers with one key', () => {
    for (const a of [
      'CommandOrControl+Shift+O',
      'Ctrl+Alt+F5',
      'Alt+Space',
      'Super+num5',
      'CmdOrCtrl+Plus',
      'Shift+F24',
      'Control+/',
    ])
      expect(acceleratorProblem(a), a).toBeUndefined();
  });

  it('refuses a bare key, an unknown modifier or key, a repeated modifier and "++"', () => {
    expect(acceleratorProblem('O')).toMatch(/at least one modifier/);
    expect(acceleratorProblem('Hyper+O')).toMatch(/modifier "hyper"/);
    expect(acceleratorProblem('Ctrl+F25')).toMatch(/key "F25"/);
    expect(acceleratorProblem('Ctrl+Shift')).toMatch(/key "Shift"/);
    expect(acceleratorProblem('Ctrl+Ctrl+O')).toMatch(/repeats/);
    expect(acceleratorProblem('Ctrl++')).toMatch(/Plus/);
  });
});

describe('ShellSettings', () => {
  it('defaults: not at login, not on top, the default shortcut, no remembered bounds, dark', () => {
    expect(DEFAULT_SETTINGS.shell).toEqual({
      launchAtLogin: false,
      alwaysOnTop: false,
      globalShortcut: DEFAULT_GLOBAL_SHORTCUT,
      window: null,
      theme: 'dark',
    });
  });

  it('validates the shortcut and the bounds; empty turns the shortcut off', () => {
    expect(ShellSettings.parse({ globalShortcut: '' }).globalShortcut).toBe('');
    expect(ShellSettings.safeParse({ globalShortcut: 'O' }).success).toBe(false);
    expect(ShellSettings.safeParse({ window: { x: 0, y: 0, width: 100, height: 600 } }).success).toBe(false);
    expect(ShellSettings.safeParse({ window: { x: 0.5, y: 0, width: 400, height: 600 } }).success).toBe(
      false,
    );
    expect(SettingsPatch.safeParse({ shell: { alwaysOnTop: 'yes' } }).success).toBe(false);
    expect(SettingsPatch.safeParse({ shell: { apikey: 'x' } }).success).toBe(false);
  });
});

describe('settings.update with shell', () => {
  const dir = mkdtempSync(join(tmpdir(), 'od-shell-settings-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('changes only the fields given and keeps the rest', async () => {
    const store = createSettingsStore({
      path: join(dir, 'settings.json'),
      logger: { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() },
    });
    await store.load();
    await store.patch({ shell: { alwaysOnTop: true } });
    const s = await store.patch({ shell: { window: { x: 10, y: 20, width: 500, height: 700 } } });
    expect(s.shell).toEqual({
      launchAtLogin: false,
      alwaysOnTop: true,
      globalShortcut: DEFAULT_GLOBAL_SHORTCUT,
      window: { x: 10, y: 20, width: 500, height: 700 },
      theme: 'dark',
    });
    expect((await store.patch({ shell: { theme: 'light' } })).shell.theme).toBe('light');
    await expect(store.patch({ shell: { theme: 'blue' } })).rejects.toThrow(/theme must be dark or light/);
    await expect(store.patch({ shell: { globalShortcut: 'Q' } })).rejects.toThrow(/modifier/);
  });
});

describe('shellSettingsApplier', () => {
  it('applies everything first, then only what changed', async () => {
    const calls: string[] = [];
    const apply = shellSettingsApplier({
      setAlwaysOnTop: (on) => calls.push(`top ${on}`),
      setShortcut: (a) => calls.push(`shortcut ${a}`),
      setLaunchAtLogin: async (on) => void calls.push(`login ${on}`),
      logger: { warn: vi.fn() },
    });
    const s = DEFAULT_SETTINGS.shell;
    apply(s);
    expect(calls).toEqual(['top false', `shortcut ${DEFAULT_GLOBAL_SHORTCUT}`, 'login false']);
    calls.length = 0;
    apply({ ...s, window: { x: 1, y: 1, width: 400, height: 600 } });
    expect(calls).toEqual([]);
    apply({ ...s, alwaysOnTop: true, launchAtLogin: true });
    expect(calls).toEqual(['top true', 'login true']);
  });

  it('a step that fails is logged and the others still apply', async () => {
    const warn = vi.fn();
    const calls: string[] = [];
    const apply = shellSettingsApplier({
      setAlwaysOnTop: () => {
        throw new Error('window gone');
      },
      setShortcut: (a) => calls.push(a),
      setLaunchAtLogin: () => Promise.reject(new Error('registry locked')),
      logger: { warn },
    });
    apply(DEFAULT_SETTINGS.shell);
    expect(calls).toEqual([DEFAULT_GLOBAL_SHORTCUT]);
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(2));
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      'always on top not applied',
      'launch at login not applied',
    ]);
  });
});
