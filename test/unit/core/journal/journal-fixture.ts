// The shared setup of the journal-*.test.ts files: a journal per test over a fresh SQLite file, a
// clock the tests move, and an order to record.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach } from 'vitest';
import { createJournal, type Journal } from '../../../../src-main/core/journal/index.js';

export const KEY = 'sk-live-7f3a9c2e4b1d8f6a0c5e3b7d9f1a2c4e';
export const T0 = Date.UTC(2024, 4, 14, 3, 45, 0, 0); // 09:15:00 IST

export let dir: string;
export let dbPath: string;
export let now: number;
export const clock = { now: () => now };
export let journal: Journal;

export function advanceClock(ms: number): void {
  now += ms;
}
export function setClock(ms: number): void {
  now = ms;
}
/** Makes `j` the journal the tests use, and the one closed after the test. */
export function replaceJournal(j: Journal): void {
  journal = j;
}

/** A fresh journal in a fresh directory for each test, its clock at T0 (the exports above follow it). */
export function useJournal(): void {
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
}

export const place = {
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
export const { apikey: _omit, ...placeWithoutKey } = place;

export function rawCounts() {
  const db = new Database(dbPath, { readonly: true });
  const intents = (db.prepare('SELECT count(*) AS n FROM intents').get() as { n: number }).n;
  const outcomes = (db.prepare('SELECT count(*) AS n FROM outcomes').get() as { n: number }).n;
  db.close();
  return { intents, outcomes };
}
