// Unknown outcomes survive a core restart: the journal keeps what to look for, the next core's watcher
// settles it from the order book once, writes the resolution, and never sends anything again.
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startCore, until, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();

const PLACE = '/api/v1/placeorder';

async function journalEntry(h: Harness, id: string | undefined) {
  const r = await h.core.router.invoke('journal.query', { operation: 'placeorder' });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.find((e) => e.id === id);
}

describe('unknown outcomes across a restart', () => {
  it('settles a placeorder that timed out after reaching the gateway as found, once', async () => {
    const first = await startCore(paper);
    const { dataDir, keychain } = first;
    await first.core.pollNow(); // baseline: the book before the call
    const sentBefore = paper.proxy.forwardedTo(PLACE);
    paper.proxy.enqueue({ kind: 'delay', ms: 3000 }, PLACE);
    const pending = first.core.router.invoke('orders.place', {
      exchange: 'NSE',
      symbol: 'BHARTIARTL',
      action: 'BUY',
      quantity: 11,
      product: 'MIS',
    });
    await until(() => paper.proxy.forwardedTo(PLACE) === sentBefore + 1);
    await first.clock.advance(16_000); // past the client's mutation timeout
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
    const journalId = first.of('orders.unknown')[0]?.journalId;
    expect(journalId).toBeDefined();
    expect(first.of('orders.reconciled')).toEqual([]);
    await first.core.stop(); // the data dir stays: it is the next core's

    const second = await startCore(paper, { dataDir, keychain });
    try {
      await second.core.pollNow();
      const reconciled = second.of('orders.reconciled');
      expect(reconciled).toHaveLength(1);
      expect(reconciled[0]).toMatchObject({ found: true, operation: 'placeorder', journalId });
      const orderid = reconciled[0]?.orderid;
      expect(orderid).toMatch(/^\d+$/);
      const entry = await journalEntry(second, journalId);
      expect(entry?.outcome).toBe('unknown');
      expect(entry?.resolution).toMatchObject({ found: true, orderid });
      expect(entry?.orderIds).toContain(orderid);
      await second.core.pollNow();
      expect(second.of('orders.reconciled')).toHaveLength(1);
    } finally {
      await second.stop();
    }

    const third = await startCore(paper, { dataDir, keychain });
    try {
      await third.core.pollNow();
      await third.clock.advance(6000);
      await third.core.pollNow();
      expect(third.of('orders.reconciled')).toEqual([]);
      expect(third.of('orders.unknown')).toEqual([]);
    } finally {
      await third.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(paper.proxy.forwardedTo(PLACE)).toBe(sentBefore + 1);
    expect(paper.proxy.receivedFor(PLACE)).toBe(sentBefore + 1);
  });

  it('settles a placeorder that never reached the gateway as not placed, after its patience, once', async () => {
    const first = await startCore(paper);
    const { dataDir, keychain } = first;
    await first.core.pollNow();
    const sentBefore = paper.proxy.forwardedTo(PLACE);
    const receivedBefore = paper.proxy.receivedFor(PLACE);
    paper.proxy.enqueue({ kind: 'drop', forward: false }, PLACE);
    const r = await first.core.router.invoke('orders.place', {
      exchange: 'NSE',
      symbol: 'BHARTIARTL',
      action: 'SELL',
      quantity: 4,
      product: 'MIS',
    });
    expect(r).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
    const journalId = first.of('orders.unknown')[0]?.journalId;
    await first.core.stop(); // the data dir stays: it is the next core's

    const second = await startCore(paper, { dataDir, keychain });
    try {
      await second.core.pollNow();
      expect(second.of('orders.reconciled')).toEqual([]); // one read is not enough to say "not placed"
      await second.clock.advance(6000);
      await second.core.pollNow();
      expect(second.of('orders.reconciled')).toMatchObject([
        { found: false, operation: 'placeorder', journalId },
      ]);
      expect((await journalEntry(second, journalId))?.resolution).toMatchObject({ found: false });
    } finally {
      await second.stop();
    }

    const third = await startCore(paper, { dataDir, keychain });
    try {
      await third.core.pollNow();
      await third.clock.advance(6000);
      await third.core.pollNow();
      expect(third.of('orders.reconciled')).toEqual([]);
    } finally {
      await third.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(paper.proxy.forwardedTo(PLACE)).toBe(sentBefore);
    expect(paper.proxy.receivedFor(PLACE)).toBe(receivedBefore + 1);
  });
});
