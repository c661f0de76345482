// Saved baskets through the settings store: an older file loads with none, settings.update replaces
// the list whole (a save or a delete) and it survives a reload; a bad list is refused, nothing changed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSettingsStore } from '../../../../src-main/core/settings/index.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-baskets-'));
  path = join(dir, 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const leg = { symbol: 'SBIN', exchange: 'NSE', action: 'BUY', quantity: 2 } as const;

describe('saved baskets in the settings store', () => {
  it('an older settings file without them loads with none', async () => {
    await writeFile(path, JSON.stringify({ version: 1, confirmations: { place: false } }));
    const s = await createSettingsStore({ path }).load();
    expect(s.baskets).toEqual([]);
  });

  it('a patch replaces the list whole and it is remembered across a reload', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    await store.patch({ baskets: [{ name: 'A', legs: [leg] }] });
    const s = await store.patch({
      baskets: [
        { name: 'A', legs: [leg] },
        { name: 'B', legs: [{ ...leg, action: 'SELL', pricetype: 'LIMIT', price: 905.35 }] },
      ],
    });
    expect(s.baskets.map((b) => b.name)).toEqual(['A', 'B']);
    // Another part of the settings changing leaves the baskets alone.
    await store.patch({ confirmations: { cancel: false } });
    const loaded = await createSettingsStore({ path }).load();
    expect(loaded.baskets).toEqual(s.baskets);
    expect(loaded.baskets[1]?.legs[0]).toMatchObject({ action: 'SELL', pricetype: 'LIMIT', price: 905.35 });
  });

  it('refuses two baskets of one name, changing nothing', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    await store.patch({ baskets: [{ name: 'A', legs: [leg] }] });
    await expect(
      store.patch({
        baskets: [
          { name: 'X', legs: [leg] },
          { name: 'X', legs: [leg] },
        ],
      }),
    ).rejects.toThrow(/basket names must differ/);
    expect((await createSettingsStore({ path }).load()).baskets.map((b) => b.name)).toEqual(['A']);
  });
});
