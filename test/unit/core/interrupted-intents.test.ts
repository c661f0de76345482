// Pending journal entries (an intent, no outcome: OrderDesk stopped during the call) adopted by a
// starting core: which ones, what is written for them, and how the watcher gets them back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJournal, type Journal } from '../../../src-main/core/journal/index.js';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import {
  adoptInterrupted,
  claimedOrderIds,
  CLOCK_SKEW_MS,
  istDayStart,
  nextAdoptionAt,
  restoreUnknowns,
} from '../../../src-main/core/watcher/index.js';

const T0 = Date.parse('2026-11-23T10:00:00+05:30');
let dir: string;
let now: number;
let journal: Journal;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'interrupted-'));
  now = T0;
  journal = createJournal({ dbPath: join(dir, 'journal.db'), clock: { now: () => now } });
});
afterEach(() => {
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

const PLACE = {
  symbol: 'SBIN',
  exchange: 'NSE',
  action: 'BUY',
  quantity: 5,
  pricetype: 'LIMIT',
  product: 'MIS',
  price: 812.5,
  strategy: 'Desk',
};

const intent = (operation: string, request: object, profileId = 'paper') =>
  journal.recordIntent({ profileId, operation, request }).id;

describe('adoptInterrupted', () => {
  it("adopts today's pending entries of the profile older than 20 s, and nothing else", () => {
    now = T0 - 86_400_000;
    intent('placeorder', PLACE); // yesterday: that book is gone
    now = T0;
    const place = intent('placeorder', PLACE);
    intent('placeorder', PLACE, 'live-1');
    const answered = intent('placeorder', PLACE);
    journal.recordOutcome(answered, { outcome: 'ok', response: { status: 'success', orderid: '1' } });
    now = T0 + 15_000;
    const recent = intent('placeorder', PLACE); // another process may still be waiting on it
    now = T0 + 30_000;
    const logger = createMemoryLogger();
    const adopted = adoptInterrupted(journal, 'paper', now, logger);
    expect(adopted.map((a) => a.entry.id)).toEqual([place]);
    expect(adopted[0]?.message).toBe(
      "OrderDesk stopped before the gateway's answer was recorded: placeorder BUY 5 SBIN NSE",
    );
    expect(journal.get(place)).toMatchObject({ outcome: 'unknown', error: { kind: 'interrupted' } });
    expect(journal.get(recent)?.outcome).toBe('pending');
    // Once: a second start finds nothing pending.
    expect(adoptInterrupted(journal, 'paper', now + 60_000, logger).map((a) => a.entry.id)).toEqual([recent]);
  });

  it("a running core adopts an earlier run's young entry once of age, never one of its own calls", () => {
    const earlier = intent('placeorder', PLACE);
    now = T0 + 5_000;
    const started = now; // a core restarted 5 s after the crash
    const own = intent('placeorder', PLACE); // this core's call, under way
    expect(adoptInterrupted(journal, 'paper', now, createMemoryLogger())).toEqual([]);
    expect(nextAdoptionAt(journal, 'paper', now, started)).toBe(T0 + 20_001);
    now = T0 + 20_001;
    const adopted = adoptInterrupted(journal, 'paper', now, createMemoryLogger(), undefined, started);
    expect(adopted.map((a) => a.entry.id)).toEqual([earlier]);
    now = T0 + 60_000;
    expect(adoptInterrupted(journal, 'paper', now, createMemoryLogger(), undefined, started)).toEqual([]);
    expect(journal.get(own)?.outcome).toBe('pending');
    expect(nextAdoptionAt(journal, 'paper', now, started)).toBeUndefined();
  });

  it('hands the watcher a placing action matched by time, a cancel by its order, a smart order to the trader', () => {
    const place = intent('placeorder', PLACE);
    const split = intent('splitorder', { ...PLACE, quantity: 10, splitsize: 4 });
    const cancel = intent('cancelorder', { orderid: '77', strategy: 'Desk' });
    const smart = intent('placesmartorder', { ...PLACE, position_size: 5 });
    now = T0 + 60_000;
    const adopted = adoptInterrupted(journal, 'paper', now, createMemoryLogger());
    expect(adopted.map((a) => [a.entry.id, a.intent?.operation])).toEqual([
      [place, 'placeorder'],
      [split, 'splitorder'],
      [cancel, 'cancelorder'],
      [smart, undefined],
    ]);
    const claimed = new Set(['5']);
    const restored = restoreUnknowns(journal, 'paper', now, new Set(), () => claimed);
    expect(restored.unsettleable.map((e) => e.id)).toEqual([smart]);
    const byId = new Map(restored.pending.map((p) => [p.journalId, p]));
    expect(byId.get(place)?.interrupted).toMatchObject({ from: T0 - CLOCK_SKEW_MS, strategy: 'Desk' });
    expect(byId.get(place)?.interrupted?.claimed()).toBe(claimed);
    expect(byId.get(place)?.message).toContain('placeorder BUY 5 SBIN NSE');
    expect(byId.get(split)?.intent).toMatchObject({
      operation: 'splitorder',
      orders: [{ quantity: 4 }, { quantity: 4 }, { quantity: 2 }],
    });
    expect(byId.get(cancel)?.intent).toEqual({ operation: 'cancelorder', orderid: '77' });
  });
});

describe('claimedOrderIds', () => {
  it("is every order id today's other entries of the profile hold", () => {
    const mine = intent('cancelorder', { orderid: '3' });
    const other = intent('placeorder', PLACE);
    journal.recordOutcome(other, { outcome: 'ok', response: { status: 'success', orderid: '4' } });
    const theirs = intent('placeorder', PLACE, 'live-1');
    journal.recordOutcome(theirs, { outcome: 'ok', response: { status: 'success', orderid: '5' } });
    expect(claimedOrderIds(journal, 'paper', istDayStart(now), mine)).toEqual(new Set(['4']));
    expect(claimedOrderIds(journal, 'paper', istDayStart(now), other)).toEqual(new Set(['3']));
  });
});
