// The journal's records: the intent before the call and the outcome after, append-only, never the
// API key, a private file; and its WAL checkpoints.
import { statSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_EVERY, createJournal } from '../../../../src-main/core/journal/index.js';
import {
  advanceClock,
  clock,
  dbPath,
  dir,
  journal,
  KEY,
  place,
  placeWithoutKey,
  rawCounts,
  replaceJournal,
  T0,
  useJournal,
} from './journal-fixture.js';

useJournal();

describe('journal', () => {
  it('writes the intent before the call and the outcome after', () => {
    const { id, time } = journal.recordIntent({
      profileId: 'paper',
      operation: 'placeorder',
      request: place,
    });
    expect(time).toBe(T0);
    // Committed and visible to another connection before any gateway call is made.
    expect(rawCounts()).toEqual({ intents: 1, outcomes: 0 });
    expect(journal.get(id)).toMatchObject({
      outcome: 'pending',
      finishedAt: null,
      durationMs: null,
      orderIds: [],
    });

    advanceClock(137);
    const entry = journal.recordOutcome(id, {
      outcome: 'ok',
      response: { status: 'success', orderid: '24051400001' },
    });
    expect(rawCounts()).toEqual({ intents: 1, outcomes: 1 });
    expect(entry).toEqual({
      id,
      time: T0,
      profileId: 'paper',
      operation: 'placeorder',
      request: placeWithoutKey,
      orderIds: ['24051400001'],
      outcome: 'ok',
      finishedAt: T0 + 137,
      durationMs: 137,
      response: { status: 'success', orderid: '24051400001' },
    });
  });

  it('records an error outcome with kind, message and status; an explicit duration wins', () => {
    const { id } = journal.recordIntent({
      profileId: 'paper',
      operation: 'cancelorder',
      request: { apikey: KEY, strategy: 'Desk', orderid: '77' },
    });
    const entry = journal.recordOutcome(id, {
      outcome: 'error',
      error: { kind: 'bad_input', message: 'Order 77 is already complete', httpStatus: 400 },
      durationMs: 42.4,
    });
    expect(entry).toMatchObject({
      outcome: 'error',
      durationMs: 42,
      orderIds: ['77'],
      error: { kind: 'bad_input', message: 'Order 77 is already complete', httpStatus: 400 },
    });
    expect(entry.response).toBeUndefined();
  });

  it('records an unknown outcome (timeout)', () => {
    const { id } = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
    advanceClock(10_000);
    expect(
      journal.recordOutcome(id, {
        outcome: 'unknown',
        error: { kind: 'timeout', message: 'outcome unknown — reconciling' },
      }),
    ).toMatchObject({ outcome: 'unknown', durationMs: 10_000 });
  });

  it('refuses a second outcome and an outcome without an intent', () => {
    const { id } = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
    journal.recordOutcome(id, { outcome: 'ok', response: {} });
    expect(() => journal.recordOutcome(id, { outcome: 'ok', response: {} })).toThrow(/UNIQUE|constraint/);
    expect(() => journal.recordOutcome('nope', { outcome: 'ok', response: {} })).toThrow(/no journal intent/);
  });

  it('refuses an intent with a bad profile id or operation', () => {
    expect(() => journal.recordIntent({ profileId: 'Bad Id', operation: 'placeorder', request: {} })).toThrow(
      /profile id/,
    );
    expect(() => journal.recordIntent({ profileId: 'paper', operation: '', request: {} })).toThrow(
      /operation/,
    );
  });

  it('is append-only', () => {
    journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
    const db = new Database(dbPath);
    expect(() => db.prepare("UPDATE intents SET operation = 'x'").run()).toThrow(/append-only/);
    db.close();
  });

  it('never stores the API key: fields stripped, values redacted everywhere, not in the file', async () => {
    const { id } = journal.recordIntent({
      profileId: 'paper',
      operation: 'placeorder',
      request: {
        ...place,
        headers: { 'X-API-KEY': KEY, Authorization: `Bearer ${KEY}` },
        note: `key ${KEY}`,
      },
    });
    const entry = journal.recordOutcome(id, {
      outcome: 'error',
      error: { kind: 'unauthorised', message: `Invalid key ${KEY}` },
      response: { status: 'error', message: `Invalid key ${KEY}`, apiKey: KEY },
    });
    const text = JSON.stringify(entry);
    expect(text).not.toContain(KEY);
    expect(entry.request).not.toHaveProperty('apikey');
    expect(entry.request).toMatchObject({ headers: {}, note: 'key [redacted]' });
    expect(entry.error?.message).toBe('Invalid key [redacted]');
    journal.close();
    for (const name of await readdir(dir)) {
      expect((await readFile(join(dir, name))).includes(KEY), name).toBe(false);
    }
    replaceJournal(createJournal({ dbPath, clock }));
  });

  it("redacts the request's own key even when the secret store does not know it", () => {
    const j = createJournal({ dbPath: ':memory:', clock });
    const other = 'another-key-value-1234567890';
    const { id } = j.recordIntent({
      profileId: 'paper',
      operation: 'placeorder',
      request: { ...place, apikey: other },
    });
    const e = j.recordOutcome(id, {
      outcome: 'error',
      error: { kind: 'unauthorised', message: `bad ${other}` },
    });
    expect(JSON.stringify(e)).not.toContain(other);
    j.close();
  });

  it('creates the database file with mode 0600', async () => {
    expect((await stat(dbPath)).mode & 0o777).toBe(0o600);
    expect(new Database(dbPath, { readonly: true }).pragma('journal_mode', { simple: true })).toBe('wal');
  });
});

describe('journal: WAL checkpoints', () => {
  it('never inside a commit: after CHECKPOINT_EVERY outcomes, once the turn that wrote them is over', async () => {
    const size = () => statSync(dbPath).size;
    const start = size();
    // ~5 WAL pages an intent: well past the 1000 pages at which SQLite would checkpoint on its own.
    const ids = Array.from(
      { length: 400 },
      () => journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place }).id,
    );
    expect(size()).toBe(start);
    for (const [i, id] of ids.slice(0, CHECKPOINT_EVERY).entries())
      journal.recordOutcome(id, { outcome: 'ok', response: { status: 'success', orderid: `C${i}` } });
    expect(size()).toBe(start);
    await new Promise((resolve) => setImmediate(resolve));
    expect(size()).toBeGreaterThan(start);
    expect(journal.query({ limit: 1000 })).toHaveLength(400);
  });
});
