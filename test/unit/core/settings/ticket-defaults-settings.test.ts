// settings.ticketDefaults: the ticket's order type and product per segment, through the store's
// patch (what settings.update runs) and back from the file: a patch replaces the segments it names
// and keeps the others; a file from before the field parses with none saved; bad shapes are refused.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, Settings, SettingsPatch } from '../../../../src-main/contract/index.js';
import { createSettingsStore } from '../../../../src-main/core/settings/index.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-ticket-defaults-'));
  path = join(dir, 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('settings.ticketDefaults', () => {
  it('has none saved by default, also for a file saved before the field existed', async () => {
    expect(DEFAULT_SETTINGS.ticketDefaults).toEqual({});
    await writeFile(path, JSON.stringify({ version: 2, confirmations: { place: false } }));
    const s = await createSettingsStore({ path }).load();
    expect(s.ticketDefaults).toEqual({});
  });

  it('a patch replaces the segments it names, keeps the others, and survives a restart', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    await store.patch({ ticketDefaults: { equity: { priceType: 'MARKET', product: 'MIS' } } });
    await store.patch({ ticketDefaults: { fno: { priceType: 'LIMIT', product: 'MIS' } } });
    const s = await store.patch({ ticketDefaults: { equity: { priceType: 'SL-M', product: 'CNC' } } });
    const want = {
      equity: { priceType: 'SL-M', product: 'CNC' },
      fno: { priceType: 'LIMIT', product: 'MIS' },
    };
    expect(s.ticketDefaults).toEqual(want);
    expect(Settings.parse(JSON.parse(await readFile(path, 'utf8'))).ticketDefaults).toEqual(want);
    expect((await createSettingsStore({ path }).load()).ticketDefaults).toEqual(want);
  });

  it('refuses an unknown segment, order type or product, naming the field', () => {
    for (const bad of [
      { ticketDefaults: { cash: { priceType: 'MARKET', product: 'MIS' } } },
      { ticketDefaults: { equity: { priceType: 'MKT', product: 'MIS' } } },
      { ticketDefaults: { equity: { priceType: 'MARKET', product: 'BO' } } },
      { ticketDefaults: { equity: { priceType: 'MARKET' } } },
    ]) {
      const r = SettingsPatch.safeParse(bad);
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(r.error?.issues[0]?.path[0]).toBe('ticketDefaults');
    }
  });
});
