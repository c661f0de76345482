// One-click mode's settings: off by default, an old settings file without them still loads, a patch
// merges them (arming keeps the caps) and they survive a reload; bad caps are refused with a reason.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../src-main/contract/index.js';
import { createSettingsStore } from '../../../../src-main/core/settings/index.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-one-click-'));
  path = join(dir, 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('one-click settings', () => {
  it('are off by default, with a one-lot cap, ₹2,00,000 and a 1 s cooldown', () => {
    expect(DEFAULT_SETTINGS.oneClick).toEqual({
      armed: false,
      maxLots: 1,
      maxValue: 200_000,
      cooldownMs: 1000,
    });
  });

  it('an older settings file without them loads with the defaults', async () => {
    await writeFile(path, JSON.stringify({ version: 1, confirmations: { place: false } }));
    const s = await createSettingsStore({ path }).load();
    expect(s.oneClick.armed).toBe(false);
    expect(s.confirmations.place).toBe(false);
  });

  it('arming is merged into the caps and remembered across a reload', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    await store.patch({ oneClick: { maxLots: 3, cooldownMs: 500 } });
    const s = await store.patch({ oneClick: { armed: true } });
    expect(s.oneClick).toEqual({ armed: true, maxLots: 3, maxValue: 200_000, cooldownMs: 500 });
    const loaded = await createSettingsStore({ path }).load();
    expect(loaded.oneClick).toEqual(s.oneClick);
  });

  it('refuses a cap that makes no sense, saying which field, and changes nothing', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    await expect(store.patch({ oneClick: { maxLots: 0 } })).rejects.toThrow(/Max lots must be at least 1/);
    await expect(store.patch({ oneClick: { armed: 'yes' } as never })).rejects.toThrow(/armed/);
    await expect(store.patch({ oneClick: { bogus: 1 } as never })).rejects.toThrow(/oneClick/);
    expect(store.get().oneClick).toEqual(DEFAULT_SETTINGS.oneClick);
  });
});
