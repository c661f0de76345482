// Settings version 1 held on/off alert toggles; version 2 holds a rule per event. An old file keeps
// the trader's choices: on becomes an OS notification, off stays off.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SETTINGS_VERSION } from '../../../../src-main/contract/index.js';
import { createSettingsStore } from '../../../../src-main/core/settings/index.js';
import { migrateSettings } from '../../../../src-main/core/settings/migrations.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-alert-rules-'));
  path = join(dir, 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const v1 = {
  version: 1,
  risk: { maxQuantityPerOrder: 75 },
  alerts: { fill: true, partial: false, rejection: true, cancellation: false, paused: true },
};

describe('alert toggles → notification rules', () => {
  it('an old settings file keeps its choices: on is an OS notification, off is off, pause stays', async () => {
    await writeFile(path, JSON.stringify(v1));
    const store = createSettingsStore({ path });
    const s = await store.load();
    expect(store.warnings()).toEqual([]);
    expect(s.alerts).toEqual({
      fill: 'os',
      partial: 'off',
      rejection: 'os',
      cancellation: 'off',
      // Version 1 had no rule for unknown outcomes: the default.
      unknown: 'os',
      paused: true,
    });
    expect(s.risk.maxQuantityPerOrder).toBe(75);
    // The migration is written back, so the next start reads version 2 as it is.
    const onDisk = JSON.parse(await readFile(path, 'utf8'));
    expect(onDisk.version).toBe(SETTINGS_VERSION);
    expect(onDisk.alerts.partial).toBe('off');
  });

  it('an unversioned file with toggles goes through both steps', () => {
    const r = migrateSettings({ alerts: { fill: false } });
    expect(r).toEqual({ ok: true, migrated: true, value: { version: 2, alerts: { fill: 'off' } } });
  });

  it('a file without alerts, or with rules already, is left for the schema', () => {
    expect(migrateSettings({ version: 1 })).toEqual({ ok: true, migrated: true, value: { version: 2 } });
    expect(migrateSettings({ version: 2, alerts: { fill: 'sound' } })).toEqual({
      ok: true,
      migrated: false,
      value: { version: 2, alerts: { fill: 'sound' } },
    });
  });

  it('a version 2 file with a bad rule falls back to defaults with a warning, never a crash', async () => {
    await writeFile(path, JSON.stringify({ version: 2, alerts: { fill: 'loud' } }));
    const store = createSettingsStore({ path });
    const s = await store.load();
    expect(s.alerts.fill).toBe('os');
    expect(store.warnings().join(' ')).toMatch(/alerts\.fill/);
  });

  it('settings.update takes a rule per event and refuses anything else, naming the field', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    expect((await store.patch({ alerts: { unknown: 'sound' } })).alerts.unknown).toBe('sound');
    const refused = await store.patch({ alerts: { fill: true } }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'SettingsError', fields: [{ path: 'alerts.fill' }] });
  });
});
