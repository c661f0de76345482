// journal.inDoubt: the entries the duplicate hold-back reads on every order (pending or unknown),
// answered from memory when none is in doubt; it must always agree with the journal itself, after a
// restart and when another connection (the CLI, another run) writes.
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../../src-main/contract/index.js';
import { createJournal, type Journal } from '../../../../src-main/core/journal/index.js';
import {
  advanceClock,
  clock,
  dbPath,
  journal,
  KEY,
  place,
  replaceJournal,
  T0,
  useJournal,
} from './journal-fixture.js';

useJournal();

/** What the journal's own filtered reads say is in doubt: pending, then unknown, merged oldest first. */
function fromQueries(j: Journal, profileId: string, from: number): string[] {
  const q = { profileId, from, order: 'asc', limit: 10_000 } as const;
  return [...j.query({ ...q, outcome: 'pending' }), ...j.query({ ...q, outcome: 'unknown' })]
    .sort((a, b) => a.time - b.time)
    .map((e) => e.id);
}
const ids = (entries: JournalEntry[]) => entries.map((e) => e.id);

describe('journal.inDoubt', () => {
  it('agrees with the journal as outcomes come in: pending and unknown stay, ok and error go', () => {
    const profile = 'paper';
    expect(journal.inDoubt(profile, T0)).toEqual([]);
    const a = journal.recordIntent({ profileId: profile, operation: 'placeorder', request: place });
    advanceClock(10);
    const b = journal.recordIntent({ profileId: profile, operation: 'placeorder', request: place });
    advanceClock(10);
    const c = journal.recordIntent({ profileId: profile, operation: 'placeorder', request: place });
    advanceClock(10);
    const d = journal.recordIntent({ profileId: 'other', operation: 'placeorder', request: place });
    expect(ids(journal.inDoubt(profile, T0))).toEqual([a.id, b.id, c.id]);
    expect(ids(journal.inDoubt(profile, T0))).toEqual(fromQueries(journal, profile, T0));

    journal.recordOutcome(a.id, { outcome: 'ok', response: { status: 'success', orderid: '1' } });
    journal.recordOutcome(b.id, {
      outcome: 'unknown',
      error: { kind: 'unknown_outcome', message: 'timed out' },
    });
    // An outcome committed at the end of the turn is seen by the next read all the same.
    journal.recordOutcomeLater(
      c.id,
      { outcome: 'error', error: { kind: 'server', message: 'down' } },
      () => {},
    );
    const left = journal.inDoubt(profile, T0);
    expect(ids(left)).toEqual([b.id]);
    expect(left[0]!.outcome).toBe('unknown');
    expect(ids(left)).toEqual(fromQueries(journal, profile, T0));
    // A resolved unknown outcome is still one the hold reads (placed after all, moments ago).
    journal.recordResolution(b.id, { found: true, orderid: '2', message: 'found in the order book' });
    expect(ids(journal.inDoubt(profile, T0))).toEqual([b.id]);
    // By profile and by time.
    expect(ids(journal.inDoubt('other', T0))).toEqual([d.id]);
    expect(journal.inDoubt(profile, T0 + 11)).toEqual([]);
  });

  it('after a restart, an intent the earlier run left without an outcome is in doubt', () => {
    const a = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
    journal.close();
    replaceJournal(createJournal({ dbPath, clock, secrets: () => [KEY] }));
    expect(ids(journal.inDoubt('paper', T0))).toEqual([a.id]);
    expect(ids(journal.inDoubt('paper', T0))).toEqual(fromQueries(journal, 'paper', T0));
  });

  it('sees what another connection writes to the same file, and its outcomes', () => {
    expect(journal.inDoubt('paper', T0)).toEqual([]);
    const cli = createJournal({ dbPath, clock, secrets: () => [KEY] });
    try {
      const a = cli.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
      expect(ids(journal.inDoubt('paper', T0))).toEqual([a.id]);
      cli.recordOutcome(a.id, { outcome: 'ok', response: { status: 'success', orderid: '9' } });
      expect(journal.inDoubt('paper', T0)).toEqual([]);
      const b = cli.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
      cli.recordOutcome(b.id, { outcome: 'unknown', error: { kind: 'unknown_outcome', message: 'lost' } });
      expect(ids(journal.inDoubt('paper', T0))).toEqual([b.id]);
    } finally {
      cli.close();
    }
  });

  it('answers a question older than what it holds from the journal itself', () => {
    const a = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
    advanceClock(40 * 3_600_000);
    // Two days on: still in doubt when asked from its time (the hold-back asks for today only).
    expect(ids(journal.inDoubt('paper', T0))).toEqual([a.id]);
    expect(journal.inDoubt('paper', T0 + 1)).toEqual([]);
  });
});
