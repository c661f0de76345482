import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, PAPER_PROFILE_ID } from '../../../../src-main/contract/index.js';
import { createSettingsStore } from '../../../../src-main/core/settings/index.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-settings-'));
  path = join(dir, 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const gatewayProfile = {
  id: 'broker-1',
  name: 'My broker',
  kind: 'gateway' as const,
  baseUrl: 'https://gw.example.in',
  strategy: 'Desk',
  rateLimitPerSecond: 8,
};

describe('settings store', () => {
  it('starts from defaults when there is no file, and creates none', async () => {
    const store = createSettingsStore({ path });
    expect(await store.load()).toEqual(DEFAULT_SETTINGS);
    expect(store.warnings()).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('defaults put the embedded paper profile first and active', () => {
    expect(DEFAULT_SETTINGS.profiles[0]?.id).toBe(PAPER_PROFILE_ID);
    expect(DEFAULT_SETTINGS.activeProfileId).toBe(PAPER_PROFILE_ID);
    expect(DEFAULT_SETTINGS.risk.duplicateWindowMs).toBe(2000);
    expect(DEFAULT_SETTINGS.version).toBe(2);
  });

  it('round-trips through the file with mode 0600 and no temp files left', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    const saved = await store.update((s) => ({
      ...s,
      risk: { ...s.risk, maxValuePerOrder: 250000.5 },
      alerts: { ...s.alerts, partial: 'off' },
      profiles: [...s.profiles, gatewayProfile],
      activeProfileId: 'broker-1',
    }));
    const again = createSettingsStore({ path });
    expect(await again.load()).toEqual(saved);
    expect(saved.activeProfileId).toBe('broker-1');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it('falls back to defaults on a corrupt file, warns, and keeps a .bak copy', async () => {
    await writeFile(path, '{"version": 1, "risk": {');
    const store = createSettingsStore({ path });
    expect(await store.load()).toEqual(DEFAULT_SETTINGS);
    expect(store.warnings()[0]).toMatch(/invalid \(not valid JSON\).*settings\.json\.bak/);
    expect(await readFile(`${path}.bak`, 'utf8')).toBe('{"version": 1, "risk": {');
    expect((await stat(`${path}.bak`)).mode & 0o777).toBe(0o600);
  });

  it('falls back to defaults when a value breaks the schema, naming the field', async () => {
    await writeFile(path, JSON.stringify({ version: 1, risk: { maxQuantityPerOrder: -5 } }));
    const store = createSettingsStore({ path });
    expect(await store.load()).toEqual(DEFAULT_SETTINGS);
    expect(store.warnings()[0]).toContain('risk.maxQuantityPerOrder');
  });

  it('refuses a file from a newer version rather than downgrading it', async () => {
    await writeFile(path, JSON.stringify({ version: 99 }));
    const store = createSettingsStore({ path });
    expect(await store.load()).toEqual(DEFAULT_SETTINGS);
    expect(store.warnings()[0]).toMatch(/newer OrderDesk/);
  });

  it('migrates an unversioned file and persists the version', async () => {
    await writeFile(path, JSON.stringify({ risk: { maxQuantityPerOrder: 50 } }));
    const store = createSettingsStore({ path });
    expect((await store.load()).risk.maxQuantityPerOrder).toBe(50);
    expect(JSON.parse(await readFile(path, 'utf8')).version).toBe(2);
  });

  it('removes secret-looking fields found on disk at once', async () => {
    const raw = { version: 1, profiles: [{ ...gatewayProfile, apikey: 'LEAKED-KEY-123' }], apiKey: 'x' };
    await writeFile(path, JSON.stringify(raw));
    const store = createSettingsStore({ path });
    const s = await store.load();
    expect(s.profiles[1]?.id).toBe('broker-1');
    expect(store.warnings()[0]).toMatch(/profiles\.0\.apikey.*removed/);
    expect(await readFile(path, 'utf8')).not.toContain('LEAKED-KEY-123');
  });

  it('refuses to save anything that looks like a secret', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    await expect(
      store.update((s) => ({ ...s, profiles: [...s.profiles, { ...gatewayProfile, api_key: 'k' }] })),
    ).rejects.toThrow(/never hold secrets.*profiles\.1\.api_key/);
    await expect(store.patch({ risk: { apiKey: 'k' } })).rejects.toThrow(/never hold secrets/);
    await expect(readFile(path)).rejects.toThrow(/ENOENT/);
  });

  it('rejects invalid saves and keeps the current settings', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    await expect(store.patch({ risk: { priceBandPercent: 500 } })).rejects.toThrow(/priceBandPercent/);
    await expect(
      store.update((s) => ({ ...s, profiles: [...s.profiles, { ...gatewayProfile, baseUrl: '' }] })),
    ).rejects.toThrow(/baseUrl is required/);
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
  });

  it('patches only the fields given', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    const s = await store.patch({ risk: { maxQuantityPerOrder: 75 }, alerts: { paused: true } });
    expect(s.risk).toEqual({ ...DEFAULT_SETTINGS.risk, maxQuantityPerOrder: 75 });
    expect(s.alerts.paused).toBe(true);
    expect(s.alerts.fill).toBe('os');
  });

  it('keeps paper first, drops duplicate ids and repairs a dangling active profile', async () => {
    await writeFile(
      path,
      JSON.stringify({
        version: 1,
        activeProfileId: 'gone',
        profiles: [gatewayProfile, gatewayProfile, { id: 'paper', name: 'Sim', baseUrl: 'http://x' }],
      }),
    );
    const s = await createSettingsStore({ path }).load();
    expect(s.profiles.map((p) => p.id)).toEqual(['paper', 'broker-1']);
    expect(s.profiles[0]).toMatchObject({ name: 'Sim', kind: 'paper', baseUrl: '' });
    expect(s.activeProfileId).toBe('paper');
  });

  it('serialises concurrent updates', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    await Promise.all(
      Array.from({ length: 10 }, () =>
        store.update((s) => ({
          ...s,
          risk: { ...s.risk, maxQuantityPerOrder: s.risk.maxQuantityPerOrder + 1 },
        })),
      ),
    );
    expect((await createSettingsStore({ path }).load()).risk.maxQuantityPerOrder).toBe(10_010);
  });

  it('notifies listeners after a save', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    const seen: number[] = [];
    const off = store.onChange((s) => seen.push(s.polling.visibleMs));
    await store.patch({ polling: { visibleMs: 3000 } });
    off();
    await store.patch({ polling: { visibleMs: 4000 } });
    expect(seen).toEqual([3000]);
  });

  describe('atomicity', () => {
    it('a failure between temp write and rename leaves the old file intact', async () => {
      await createSettingsStore({ path }).save({ risk: { maxQuantityPerOrder: 1 } });
      const before = await readFile(path, 'utf8');
      const store = createSettingsStore({
        path,
        beforeRename: () => {
          throw new Error('simulated crash');
        },
      });
      await store.load();
      await expect(store.patch({ risk: { maxQuantityPerOrder: 2 } })).rejects.toThrow('simulated crash');
      expect(await readFile(path, 'utf8')).toBe(before);
      expect(await readdir(dir)).toEqual(['settings.json']);
      expect(store.get().risk.maxQuantityPerOrder).toBe(1);
    });

    it('a process killed between temp write and rename leaves the old file intact', async () => {
      await createSettingsStore({ path }).save({ risk: { maxQuantityPerOrder: 1 } });
      const before = await readFile(path, 'utf8');
      const child = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          join(import.meta.dirname, '../../../support/children/crash-during-write.ts'),
          path,
        ],
        { encoding: 'utf8', timeout: 20_000 },
      );
      expect(child.signal).toBe('SIGKILL');
      expect(await readFile(path, 'utf8')).toBe(before);
      // The crash left its durable temp file behind; the next load ignores and removes it.
      const leftovers = (await readdir(dir)).filter((n) => n !== 'settings.json');
      expect(leftovers).toHaveLength(1);
      expect(await readFile(join(dir, leftovers[0] ?? ''), 'utf8')).toContain('999');
      const s = await createSettingsStore({ path }).load();
      expect(s.risk.maxQuantityPerOrder).toBe(1);
      expect(await readdir(dir)).toEqual(['settings.json']);
    });
  });
});
