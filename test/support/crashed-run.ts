// A core run that died during an order call: its intent journalled `ageMs` before the next core's
// start and no answer recorded (OrderDesk stopped during the call). The next core, started on the same
// data dir and keychain, is what the restart tests look at; the request can also be made to reach the
// gateway directly, as the dead core's call would have.
import { join } from 'node:path';
import { expect } from 'vitest';
import { PAPER_PROFILE_ID } from '../../src-main/contract/index.js';
import { createJournal } from '../../src-main/core/journal/index.js';
import { CORE_T0, startCore, type Harness, type Paper } from './core-harness.js';

/** The interrupted order of the restart tests: a market BUY of 7 HDFCBANK, no other test's order. */
export const INTERRUPTED_ORDER = {
  symbol: 'HDFCBANK',
  exchange: 'NSE',
  action: 'BUY',
  quantity: 7,
  pricetype: 'MARKET',
  product: 'MIS',
  price: 0,
} as const;

export interface CrashedRun {
  dataDir: string;
  keychain: Harness['keychain'];
  /** The journal entry of the interrupted intent. */
  id: string;
  /** The paper profile's key, as the dead core stored it. */
  key: string;
}

/** The crashed runs of one placeorder `request`, and the gateway seen directly with the paper key. */
export function interruptedOrder(paper: Paper, request: Record<string, unknown>) {
  return {
    /** A core run that ends after writing the intent (`ageMs` before the next core's start) and no outcome. */
    async crashedRun(ageMs = 60_000): Promise<CrashedRun> {
      const first = await startCore(paper);
      const { dataDir, keychain } = first;
      await first.core.stop();
      // What the order handlers write before the gateway call; the process died before the answer.
      const journal = createJournal({
        dbPath: join(dataDir, 'journal.db'),
        clock: { now: () => CORE_T0 - ageMs },
      });
      const { id } = journal.recordIntent({ profileId: PAPER_PROFILE_ID, operation: 'placeorder', request });
      journal.close();
      const key = keychain.items.get(`OrderDesk/${PAPER_PROFILE_ID}`);
      if (!key) throw new Error(`no paper key in ${[...keychain.items.keys()].join(', ')}`);
      return { dataDir, keychain, id, key };
    },
    /** The request reaching the gateway as sent (the dead core's call, placed late or at once). */
    async placeDirectly(key: string): Promise<string> {
      const r = await paper.gw.api('placeorder', key, { ...request });
      expect(r.status).toBe(200);
      return String(r.body.orderid);
    },
    async bookSize(key: string): Promise<number> {
      const r = await paper.gw.api('orderbook', key);
      expect(r.status).toBe(200);
      return (r.body.data as { orders: unknown[] }).orders.length;
    },
  };
}

/** The placeorder journal entry `id`, as the core's journal.query answers it. */
export async function journalEntry(h: Harness, id: string) {
  const r = await h.core.router.invoke('journal.query', { operation: 'placeorder' });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.find((e) => e.id === id);
}
