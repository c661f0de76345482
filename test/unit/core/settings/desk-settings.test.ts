// The desk's settings: watchlists (tabs 1–5) and the per-action order confirmations, through the
// settings store's patch (what `settings.update` runs) and back from the file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  Settings,
  WATCHLIST_COUNT,
  WATCHLIST_MAX_ITEMS,
} from '../../../../src-main/contract/index.js';
import { createSettingsStore } from '../../../../src-main/core/settings/index.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-desk-settings-'));
  path = join(dir, 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('desk settings', () => {
  it('defaults: five lists, the first with the two indices and six large caps; every confirmation on', () => {
    expect(DEFAULT_SETTINGS.watchlists).toHaveLength(WATCHLIST_COUNT);
    expect(DEFAULT_SETTINGS.watchlists.map((l) => l.name)).toEqual(['1', '2', '3', '4', '5']);
    // The near NIFTY future joins them at the first start, from the gateway's master.
    expect(DEFAULT_SETTINGS.watchlists[0]?.items).toEqual([
      { symbol: 'NIFTY', exchange: 'NSE_INDEX' },
      { symbol: 'BANKNIFTY', exchange: 'NSE_INDEX' },
      { symbol: 'RELIANCE', exchange: 'NSE' },
      { symbol: 'HDFCBANK', exchange: 'NSE' },
      { symbol: 'ICICIBANK', exchange: 'NSE' },
      { symbol: 'INFY', exchange: 'NSE' },
      { symbol: 'TCS', exchange: 'NSE' },
      { symbol: 'SBIN', exchange: 'NSE' },
    ]);
    expect(DEFAULT_SETTINGS.confirmations).toEqual({ place: true, modify: true, cancel: true });
  });

  it('each parse gets its own default lists (a change to one never leaks into the defaults)', () => {
    const a = Settings.parse({});
    a.watchlists[0]?.items.pop();
    expect(Settings.parse({}).watchlists[0]?.items).toHaveLength(8);
  });

  it('a patch replaces the lists whole and merges confirmations, and both survive a reload', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    const lists = [
      { name: '1', items: [{ symbol: 'INFY', exchange: 'NSE' as const }] },
      { name: 'Bank', items: [{ symbol: 'HDFCBANK', exchange: 'NSE' as const }] },
    ];
    const s = await store.patch({ watchlists: lists, confirmations: { place: false } });
    expect(s.watchlists.slice(0, 2)).toEqual(lists);
    expect(s.watchlists).toHaveLength(WATCHLIST_COUNT);
    expect(s.confirmations).toEqual({ place: false, modify: true, cancel: true });
    // A later patch of something else keeps both.
    await store.patch({ confirmations: { cancel: false } });
    const again = createSettingsStore({ path });
    const loaded = await again.load();
    expect(loaded.watchlists.slice(0, 2)).toEqual(lists);
    expect(loaded.confirmations).toEqual({ place: false, modify: true, cancel: false });
  });

  it('refuses a list naming an instrument twice, an unknown exchange, too many items or lists', async () => {
    const store = createSettingsStore({ path });
    await store.load();
    const sbin = { symbol: 'SBIN', exchange: 'NSE' };
    await expect(store.patch({ watchlists: [{ name: '1', items: [sbin, sbin] }] })).rejects.toThrow(
      /lists an instrument once/,
    );
    await expect(
      store.patch({ watchlists: [{ name: '1', items: [{ symbol: 'SBIN', exchange: 'NYSE' }] }] }),
    ).rejects.toThrow(/exchange must be one of/);
    const many = Array.from({ length: WATCHLIST_MAX_ITEMS + 1 }, (_, i) => ({
      symbol: `S${i}`,
      exchange: 'NSE',
    }));
    await expect(store.patch({ watchlists: [{ name: '1', items: many }] })).rejects.toThrow(/at most 50/);
    const six = Array.from({ length: 6 }, (_, i) => ({ name: String(i + 1), items: [] }));
    await expect(store.patch({ watchlists: six })).rejects.toThrow(/at most 5 watchlists/);
    await expect(store.patch({ confirmations: { place: 'no' } })).rejects.toThrow(/confirmations/);
    await expect(store.patch({ confirmations: { send: false } })).rejects.toThrow(/send/);
    // Nothing of the refused patches was applied.
    expect(store.get().watchlists).toEqual(DEFAULT_SETTINGS.watchlists);
  });

  it('a settings file from before watchlists existed loads with the default lists', async () => {
    await writeFile(path, JSON.stringify({ version: 1, risk: { maxQuantityPerOrder: 5 } }));
    const s = await createSettingsStore({ path }).load();
    expect(s.risk.maxQuantityPerOrder).toBe(5);
    expect(s.watchlists).toEqual(DEFAULT_SETTINGS.watchlists);
    expect(s.confirmations.place).toBe(true);
  });
});
