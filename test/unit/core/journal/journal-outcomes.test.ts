// The journal's unknown outcomes and their resolution, and an outcome committed after the answer
// (recordOutcomeLater).
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createJournal } from '../../../../src-main/core/journal/index.js';
import {
  advanceClock,
  clock,
  dbPath,
  journal,
  KEY,
  place,
  rawCounts,
  replaceJournal,
  T0,
  useJournal,
} from './journal-fixture.js';

useJournal();

describe('journal', () => {
  describe('unknown outcomes', () => {
    function unknownPlace(profileId = 'paper') {
      const { id } = journal.recordIntent({ profileId, operation: 'placeorder', request: place });
      journal.recordOutcome(id, {
        outcome: 'unknown',
        error: { kind: 'unknown_outcome', message: 'timed out' },
      });
      return id;
    }

    it('keeps a check and one resolution per unknown outcome, append-only', () => {
      const id = unknownPlace();
      const check = { intent: { operation: 'placeorder' }, known: ['1'] };
      journal.recordCheck(id, check);
      expect(() => journal.recordCheck(id, check)).toThrow();
      expect(journal.unresolved('paper', T0)).toEqual([{ entry: journal.get(id), check }]);
      advanceClock(5000);
      expect(
        journal.recordResolution(id, { found: true, orderid: '42', message: 'order 42 was placed' }),
      ).toBe(true);
      expect(journal.recordResolution(id, { found: false, message: 'again' })).toBe(false);
      const entry = journal.get(id);
      expect(entry?.outcome).toBe('unknown');
      expect(entry?.resolution).toEqual({
        time: T0 + 5000,
        found: true,
        orderid: '42',
        message: 'order 42 was placed',
      });
      expect(entry?.orderIds).toEqual(['42']);
      expect(journal.query({ orderId: '42' }).map((e) => e.id)).toEqual([id]);
      expect(journal.unresolved('paper', T0)).toEqual([]);
      expect(journal.exportCsv().split('\r\n')[1]).toMatch(/,order 42 was placed$/);
      const db = new Database(dbPath);
      expect(() => db.prepare('UPDATE resolutions SET found = 0').run()).toThrow(/append-only/);
      expect(() => db.prepare("UPDATE unknown_checks SET check_json = '{}'").run()).toThrow(/append-only/);
      db.close();
    });

    it("a composite resolution's orders become the entry's order ids (found by id, claimed by it)", () => {
      const { id } = journal.recordIntent({ profileId: 'paper', operation: 'splitorder', request: place });
      journal.recordOutcome(id, {
        outcome: 'unknown',
        error: { kind: 'unknown_outcome', message: 'timed out' },
      });
      journal.recordResolution(id, {
        found: true,
        orderids: ['51', '52'],
        message: 'all 2 children were placed',
      });
      expect(journal.get(id)?.orderIds).toEqual(['51', '52']);
      expect(journal.query({ orderId: '52' }).map((e) => e.id)).toEqual([id]);
    });

    it("lists only the profile's unresolved unknown outcomes from a time on, oldest first", () => {
      const early = unknownPlace();
      advanceClock(1000);
      const later = unknownPlace();
      unknownPlace('live-1');
      const { id: ok } = journal.recordIntent({
        profileId: 'paper',
        operation: 'placeorder',
        request: place,
      });
      journal.recordOutcome(ok, { outcome: 'ok', response: { status: 'success', orderid: '7' } });
      expect(journal.unresolved('paper', T0).map((u) => u.entry.id)).toEqual([early, later]);
      expect(journal.unresolved('paper', T0 + 1)).toMatchObject([{ entry: { id: later }, check: undefined }]);
    });

    it('refuses a check or resolution for an entry whose outcome is not unknown', () => {
      const { id } = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
      expect(() => journal.recordResolution(id, { found: false, message: 'x' })).toThrow(
        /no journal outcome/,
      );
      journal.recordOutcome(id, { outcome: 'ok', response: {} });
      expect(() => journal.recordCheck(id, {})).toThrow(/not an unknown outcome/);
      expect(() => journal.recordResolution(id, { found: false, message: 'x' })).toThrow(
        /not an unknown outcome/,
      );
    });
  });
});

describe('journal: an outcome committed after the answer (recordOutcomeLater)', () => {
  const ok = { outcome: 'ok' as const, response: { status: 'success', orderid: '24051400009' } };
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('commits at the end of the turn, with no read needed', async () => {
    const { id } = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
    const errors: unknown[] = [];
    journal.recordOutcomeLater(id, ok, (err) => errors.push(err));
    // The intent is durable already; the outcome is not on disk until the caller has answered.
    expect(rawCounts()).toEqual({ intents: 1, outcomes: 0 });
    await nextTurn();
    expect(rawCounts()).toEqual({ intents: 1, outcomes: 1 });
    expect(errors).toEqual([]);
  });

  it('any call on the journal commits queued outcomes first: a read never misses one', () => {
    const { id } = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
    journal.recordOutcomeLater(id, ok, () => undefined);
    expect(journal.get(id)).toMatchObject({ outcome: 'ok', orderIds: ['24051400009'] });
    expect(rawCounts()).toEqual({ intents: 1, outcomes: 1 });
    // The request's own key is redacted from a deferred outcome too.
    const second = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
    journal.recordOutcomeLater(second.id, { outcome: 'ok', response: { echoed: KEY } }, () => undefined);
    expect(JSON.stringify(journal.query({ outcome: 'ok' }))).not.toContain(KEY);
  });

  it('reports a commit that fails and still commits the others', async () => {
    const { id } = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
    const errors: unknown[] = [];
    journal.recordOutcomeLater('no-such-intent', ok, (err) => errors.push(err));
    journal.recordOutcomeLater(id, ok, (err) => errors.push(err));
    await nextTurn();
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/no journal intent no-such-intent/);
    expect(journal.get(id)?.outcome).toBe('ok');
  });

  it('close commits what is queued', () => {
    const { id } = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
    journal.recordOutcomeLater(id, ok, () => undefined);
    journal.close();
    expect(rawCounts()).toEqual({ intents: 1, outcomes: 1 });
    replaceJournal(createJournal({ dbPath, clock, secrets: () => [KEY] }));
  });
});
