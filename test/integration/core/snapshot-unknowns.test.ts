// "Reconciling" survives a reload: session.snapshot lists the order actions whose outcome is still
// unknown (the watcher's pending ones, read in the same tick as the books and the seq), so a window
// loaded while one is pending shows it, and the orders.reconciled that settles it comes after the
// snapshot's seq. A core restarted with one pending (restored from the journal) lists it too.
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '../../../src-main/contract/index.js';
import { RESTORED_UNKNOWN_MESSAGE } from '../../../src-main/core/router/session-snapshot.js';
import { startCore, until, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();
const PLACE = '/api/v1/placeorder';

async function snapshot(h: Harness): Promise<SessionSnapshot> {
  const r = await h.core.router.invoke('session.snapshot');
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

/** A placeorder whose answer the proxy holds past the client's timeout: sent once, outcome unknown. */
async function timedOutPlace(h: Harness, symbol: string, quantity: number) {
  const sentBefore = paper.proxy.forwardedTo(PLACE);
  paper.proxy.enqueue({ kind: 'delay', ms: 3000 }, PLACE);
  const pending = h.core.router.invoke('orders.place', {
    exchange: 'NSE',
    symbol,
    action: 'BUY',
    quantity,
    product: 'MIS',
  });
  await until(() => paper.proxy.forwardedTo(PLACE) === sentBefore + 1);
  await h.clock.advance(16_000); // past the client's mutation timeout
  expect(await pending).toMatchObject({ ok: false, error: { kind: 'unknown_outcome' } });
  return sentBefore;
}

describe('session.snapshot and unknown outcomes', () => {
  it('lists a pending unknown outcome as its orders.unknown said it, until the book settles it', async () => {
    const h = await startCore(paper);
    try {
      await h.core.pollNow(); // the book before the call
      expect((await snapshot(h)).unknowns).toEqual([]);
      const sentBefore = await timedOutPlace(h, 'HCLTECH', 13);
      const unknown = h.of('orders.unknown')[0];
      expect(unknown).toBeDefined();

      const during = await snapshot(h);
      const { seq: unknownSeq, ...announced } = unknown!;
      expect(during.unknowns).toEqual([announced]);
      expect(during.unknowns?.[0]).toMatchObject({ operation: 'placeorder', profileId: 'paper' });
      expect(during.unknowns?.[0]?.message.length).toBeGreaterThan(0);
      // The snapshot reflects the event that announced it: a window loaded now is not told twice.
      expect(during.seq).toBeGreaterThanOrEqual(unknownSeq);

      await h.core.pollNow();
      const reconciled = h.of('orders.reconciled');
      expect(reconciled).toHaveLength(1);
      expect(reconciled[0]).toMatchObject({ journalId: unknown?.journalId, found: true });
      // The window loaded from `during` applies this settlement: its seq is after the snapshot's.
      expect(reconciled[0]!.seq).toBeGreaterThan(during.seq);

      const after = await snapshot(h);
      expect(after.unknowns).toEqual([]);
      // The order it settled is in the same snapshot's book, once.
      const placed = after.orders?.orders.filter((o) => o.symbol === 'HCLTECH' && o.quantity === 13);
      expect(placed?.map((o) => o.orderid)).toEqual([reconciled[0]?.orderid]);
      expect(paper.proxy.forwardedTo(PLACE)).toBe(sentBefore + 1);
    } finally {
      await h.stop();
    }
  });

  it('a core restarted while one is pending lists it from the journal, then settles it', async () => {
    const first = await startCore(paper);
    const { dataDir, keychain } = first;
    await first.core.pollNow();
    await timedOutPlace(first, 'TECHM', 17);
    const journalId = first.of('orders.unknown')[0]?.journalId;
    await first.core.stop();

    const second = await startCore(paper, { dataDir, keychain });
    try {
      const s = await snapshot(second);
      expect(s.unknowns).toEqual([
        expect.objectContaining({ journalId, operation: 'placeorder', message: RESTORED_UNKNOWN_MESSAGE }),
      ]);
      await second.core.pollNow();
      expect(second.of('orders.reconciled')).toEqual([expect.objectContaining({ journalId, found: true })]);
      expect((await snapshot(second)).unknowns).toEqual([]);
    } finally {
      await second.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
