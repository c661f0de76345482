// settings.hotkeys: the key preset and the trader's overrides, through the store's patch (what
// settings.update runs) and back from the file; a settings file from before the field still parses.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, Settings, SettingsPatch } from '../../../../src-main/contract/index.js';
import { createSettingsStore } from '../../../../src-main/core/settings/index.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-hotkey-settings-'));
  path = join(dir, 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('settings.hotkeys', () => {
  it('defaults to the NEST preset with no overrides, also for a file saved before the field existed', async () => {
    expect(DEFAULT_SETTINGS.hotkeys).toEqual({ preset: 'nest', overrides: {} });
    await writeFile(path, JSON.stringify({ version: 1, confirmations: { place: false } }));
    const store = createSettingsStore({ path });
    const s = await store.load();
    expect(s.hotkeys).toEqual({ preset: 'nest', overrides: {} });
    expect(s.confirmations.place).toBe(false);
  });

  it('a patch changes the preset alone, or replaces the overrides whole, and both survive a reload', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    await store.patch({ hotkeys: { overrides: { 'ticket.buy': ['Shift+F9'], 'row.buy': ['B', 'Alt+B'] } } });
    await store.patch({ hotkeys: { preset: 'scalping' } });
    let s = await store.patch({ hotkeys: { overrides: { 'pane.depth': [] } } });
    expect(s.hotkeys).toEqual({ preset: 'scalping', overrides: { 'pane.depth': [] } });
    const onDisk = Settings.parse(JSON.parse(await readFile(path, 'utf8')));
    expect(onDisk.hotkeys).toEqual(s.hotkeys);
    s = await createSettingsStore({ path }).load();
    expect(s.hotkeys.preset).toBe('scalping');
  });

  it('refuses shapes that are not a preset and chord lists, naming the field', () => {
    const bad = [
      { hotkeys: { preset: 'ninja' } },
      { hotkeys: { overrides: { 'ticket.buy': 'F1' } } },
      { hotkeys: { overrides: { 'ticket.buy': ['F1', 'F2', 'F3', 'F4', 'F5'] } } },
      { hotkeys: { overrides: { 'ticket.buy': [''] } } },
      { hotkeys: { overrides: { 'not an action': ['F1'] } } },
      { hotkeys: { preset: 'nest', extra: true } },
    ];
    for (const patch of bad) {
      const r = SettingsPatch.safeParse(patch);
      expect(r.success, JSON.stringify(patch)).toBe(false);
      expect(r.error?.issues[0]?.path[0]).toBe('hotkeys');
    }
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`a.b${'x'.repeat(i)}`, ['F1']]));
    expect(SettingsPatch.safeParse({ hotkeys: { overrides: many } }).success).toBe(false);
  });
});
