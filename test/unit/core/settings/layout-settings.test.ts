// settings.layout through the settings store's patch (what `settings.update` runs) and back from
// the file: sizes merge, table widths come whole, out-of-bounds patches are refused in words, and a
// saved file with a bad size still loads (that size falls back to its default).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SETTINGS_VERSION } from '../../../../src-main/contract/index.js';
import { createSettingsStore } from '../../../../src-main/core/settings/index.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-layout-settings-'));
  path = join(dir, 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('settings.layout', () => {
  it('a patch changes only the sizes given, survives a reload, and replaces the table widths whole', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    await store.patch({ layout: { booksHeight: 320, tableColumns: { Orders: { time: 90 } } } });
    await store.patch({ layout: { watchlistWidth: 300 } });
    const loaded = await createSettingsStore({ path }).load();
    expect(loaded.layout).toEqual({
      watchlistWidth: 300,
      ticketWidth: 340,
      booksHeight: 320,
      tableColumns: { Orders: { time: 90 } },
    });
    await store.patch({ layout: { tableColumns: { Trades: { qty: 60 } } } });
    expect(store.get().layout.tableColumns).toEqual({ Trades: { qty: 60 } });
  });

  it('refuses a size out of bounds with the bound in words, and unknown layout fields', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    await expect(store.patch({ layout: { ticketWidth: 90 } })).rejects.toThrow(
      'Ticket width must be at least 300 px',
    );
    await expect(store.patch({ layout: { depthHeight: 200 } })).rejects.toThrow(/depthHeight|Unrecognized/);
    expect(store.get().layout.ticketWidth).toBe(340);
  });

  it('a saved file with a size out of bounds keeps its other settings; that size is the default', async () => {
    await writeFile(
      path,
      JSON.stringify({
        version: SETTINGS_VERSION,
        layout: { watchlistWidth: 99999, booksHeight: 200 },
        confirmations: { place: false },
      }),
    );
    const loaded = await createSettingsStore({ path }).load();
    expect(loaded.layout.watchlistWidth).toBe(280);
    expect(loaded.layout.booksHeight).toBe(200);
    expect(loaded.confirmations.place).toBe(false);
  });
});
