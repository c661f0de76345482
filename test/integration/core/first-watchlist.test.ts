// The first start's watchlist over a real core and the paper gateway: the default list 1 (NIFTY,
// BANKNIFTY, large caps) gets the near NIFTY future after the indices, read from the paper master by
// search; a list the trader already has is never touched on a later start.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expiryKey } from '../../../src-main/shared/contract-rank.js';
import { CORE_T0, startCore, usePaper } from '../../support/core-harness.js';

const paper = usePaper();

const listOne = (dataDir: string) =>
  (
    JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as {
      watchlists: { items: { symbol: string; exchange: string }[] }[];
    }
  ).watchlists[0]?.items ?? [];

describe('the first watchlist', () => {
  it('holds NIFTY, BANKNIFTY, the near NIFTY future and the large caps on a fresh start', async () => {
    const h = await startCore(paper, { ports: { firstWatchlist: true } });
    try {
      const r = await h.core.router.invoke('settings.get');
      if (!r.ok) throw new Error(r.error.message);
      const items = r.value.watchlists[0]?.items ?? [];
      expect(items.map((i) => `${i.exchange}:${i.symbol}`).filter((k) => !k.startsWith('NFO:'))).toEqual([
        'NSE_INDEX:NIFTY',
        'NSE_INDEX:BANKNIFTY',
        'NSE:RELIANCE',
        'NSE:HDFCBANK',
        'NSE:ICICIBANK',
        'NSE:INFY',
        'NSE:TCS',
        'NSE:SBIN',
      ]);
      // Third, after the indices: the NIFTY future the master has nearest to expiry, not expired.
      const fut = items[2];
      expect(fut?.exchange).toBe('NFO');
      expect(fut?.symbol).toMatch(/^NIFTY\d\d[A-Z]{3}\d\dFUT$/);
      const search = await h.core.router.invoke('market.search', { query: 'NIFTY', exchange: 'NFO' });
      if (!search.ok) throw new Error(search.error.message);
      const today = Number(new Date(CORE_T0 + 19_800_000).toISOString().slice(0, 10).replaceAll('-', ''));
      const futures = search.value.data
        .filter((s) => s.name === 'NIFTY' && s.symbol.endsWith('FUT'))
        .map((s) => ({ symbol: s.symbol, key: expiryKey(s.expiry) ?? 0 }))
        .filter((s) => s.key >= today)
        .sort((a, b) => a.key - b.key);
      expect(futures.length).toBeGreaterThan(1);
      expect(fut?.symbol).toBe(futures[0]?.symbol);
      // Every one of them is in the paper master: each quote is answered.
      for (const i of items) {
        const q = await h.core.router.invoke('market.symbol', { symbol: i.symbol, exchange: i.exchange });
        expect(q.ok, `${i.exchange}:${i.symbol}`).toBe(true);
      }
    } finally {
      await h.stop();
    }
  });

  it("never replaces the trader's own list on a later start", async () => {
    const first = await startCore(paper, { ports: { firstWatchlist: true } });
    const dataDir = first.dataDir;
    await first.core.stop();
    const mine = [{ symbol: 'SBIN', exchange: 'NSE' }];
    const saved = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as {
      watchlists: { name: string; items: unknown[] }[];
    };
    saved.watchlists[0] = { name: '1', items: mine };
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(saved));
    const again = await startCore(paper, {
      dataDir,
      keychain: first.keychain,
      ports: { firstWatchlist: true },
    });
    try {
      expect(listOne(dataDir)).toEqual(mine);
    } finally {
      await again.stop();
    }
  });
});
