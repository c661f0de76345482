import { statSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHECKPOINT_EVERY, createJournal, type Journal } from '../../../../src-main/core/journal/index.js';

const KEY = 'sk-live-7f3a9c2e4b1d8f6a0c5e3b7d9f1a2c4e';
const T0 = Date.UTC(2024, 4, 14, 3, 45, 0, 0); // 09:15:00 IST

let dir: string;
let dbPath: string;
let now: number;
const clock = { now: () => now };
let journal: Journal;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-journal-'));
  dbPath = join(dir, 'journal.sqlite');
  now = T0;
  journal = createJournal({ dbPath, clock, secrets: () => [KEY] });
});
afterEach(async () => {
  journal.close();
  await rm(dir, { recursive: true, force: true });
});

const place = {
  apikey: KEY,
  strategy: 'Desk',
  exchange: 'NSE',
  symbol: 'SBIN',
  action: 'BUY',
  quantity: 10,
  pricetype: 'LIMIT',
  product: 'MIS',
  price: 812.35,
};
const { apikey: _omit, ...placeWithoutKey } = place;

function rawCounts() {
  const db = new Database(dbPath, { readonly: true });
  const intents = (db.prepare('SELECT count(*) AS n FROM intents').get() as { n: number }).n;
  const outcomes = (db.prepare('SELECT count(*) AS n FROM outcomes').get() as { n: number }).n;
  db.close();
  return { intents, outcomes };
}

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

    now += 137;
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
    now += 10_000;
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
      now += 5000;
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
      now += 1000;
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
    journal = createJournal({ dbPath, clock });
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

  describe('queries', () => {
    function seed() {
      const rows: [number, string, string, unknown, 'ok' | 'error' | 'pending', unknown?][] = [
        [0, 'paper', 'placeorder', place, 'ok', { status: 'success', orderid: 'A1' }],
        [
          1000,
          'paper',
          'modifyorder',
          { ...place, orderid: 'A1', price: 812.4 },
          'ok',
          { status: 'success', orderid: 'A1' },
        ],
        [2000, 'broker-1', 'placeorder', place, 'error'],
        [
          3000,
          'paper',
          'cancelallorder',
          { apikey: KEY, strategy: 'Desk' },
          'ok',
          { status: 'success', canceled_orders: ['A1', 'B2'], failed_cancellations: [], message: '' },
        ],
        [4000, 'paper', 'placeorder', place, 'pending'],
      ];
      for (const [dt, profileId, operation, request, outcome, response] of rows) {
        now = T0 + dt;
        const { id } = journal.recordIntent({ profileId, operation, request });
        now += 50;
        if (outcome === 'ok') journal.recordOutcome(id, { outcome, response });
        if (outcome === 'error')
          journal.recordOutcome(id, { outcome, error: { kind: 'rate_limited', message: 'slow down' } });
      }
    }
    const ops = (q: Parameters<Journal['query']>[0]) =>
      journal.query(q).map((e) => `${e.profileId}:${e.operation}`);

    it('newest first by default, oldest first on request, with limit and offset', () => {
      seed();
      expect(ops({})).toEqual([
        'paper:placeorder',
        'paper:cancelallorder',
        'broker-1:placeorder',
        'paper:modifyorder',
        'paper:placeorder',
      ]);
      expect(ops({ order: 'asc', limit: 2, offset: 1 })).toEqual([
        'paper:modifyorder',
        'broker-1:placeorder',
      ]);
    });

    it('by time range (from inclusive, to exclusive)', () => {
      seed();
      expect(ops({ from: T0 + 1000, to: T0 + 3000, order: 'asc' })).toEqual([
        'paper:modifyorder',
        'broker-1:placeorder',
      ]);
    });

    it('by profile and by operation', () => {
      seed();
      expect(ops({ profileId: 'broker-1' })).toEqual(['broker-1:placeorder']);
      expect(ops({ operation: 'placeorder', profileId: 'paper' })).toHaveLength(2);
    });

    it('by order id, from the request or the response', () => {
      seed();
      expect(ops({ orderId: 'A1', order: 'asc' })).toEqual([
        'paper:placeorder',
        'paper:modifyorder',
        'paper:cancelallorder',
      ]);
      expect(ops({ orderId: 'B2' })).toEqual(['paper:cancelallorder']);
    });

    it('by outcome', () => {
      seed();
      expect(ops({ outcome: 'error' })).toEqual(['broker-1:placeorder']);
      expect(ops({ outcome: 'pending' })).toEqual(['paper:placeorder']);
      expect(ops({ outcome: 'ok' })).toHaveLength(3);
    });

    it('rejects an invalid query', () => {
      expect(() => journal.query({ limit: 0 })).toThrow();
      expect(() => journal.query({ profileId: 'Bad Id' })).toThrow();
    });

    it('survives reopening', () => {
      seed();
      journal.close();
      journal = createJournal({ dbPath, clock });
      expect(journal.query({})).toHaveLength(5);
    });
  });

  describe('CSV export', () => {
    it('has a header, IST timestamps, CRLF rows and RFC 4180 quoting', () => {
      const { id } = journal.recordIntent({
        profileId: 'paper',
        operation: 'placeorder',
        request: { symbol: 'M&M', tag: 'a,"b"' },
      });
      now += 20;
      journal.recordOutcome(id, {
        outcome: 'error',
        error: { kind: 'bad_input', message: 'line one\nline "two", three', httpStatus: 400 },
      });
      const csv = journal.exportCsv();
      const [header, row, end] = csv.split('\r\n');
      expect(header).toBe(
        'time_ist,id,profile,operation,order_ids,outcome,duration_ms,error_kind,error_message,http_status,request,response,resolution',
      );
      expect(end).toBe('');
      expect(row).toBe(
        `2024-05-14T09:15:00.000+05:30,${id},paper,placeorder,,error,20,bad_input,"line one\nline ""two"", three",400,"{""symbol"":""M&M"",""tag"":""a,\\""b\\""""}",,`,
      );
    });

    it('neutralises spreadsheet formulas in text cells', () => {
      const { id } = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: {} });
      journal.recordOutcome(id, {
        outcome: 'error',
        error: { kind: 'server', message: '=HYPERLINK("http://x")' },
      });
      expect(journal.exportCsv()).toContain(`"'=HYPERLINK(""http://x"")"`);
    });

    it('follows the query and never contains the key', () => {
      const a = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
      journal.recordOutcome(a.id, { outcome: 'ok', response: { status: 'success', orderid: 'Z9' } });
      journal.recordIntent({ profileId: 'broker-1', operation: 'placeorder', request: place });
      const csv = journal.exportCsv({ profileId: 'paper' });
      expect(csv.split('\r\n')).toHaveLength(3);
      expect(csv).toContain('Z9');
      expect(csv).not.toContain(KEY);
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
    journal = createJournal({ dbPath, clock, secrets: () => [KEY] });
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
