// The journal across processes: an intent committed before a crash is there after restart, and a
// second connection (the UI's reader) sees entries while the writer keeps the database open.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJournal } from '../../../src-main/core/journal/index.js';

const fixture = resolve(import.meta.dirname, '../../support/children/journal-crash.ts');
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-journal-it-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('journal durability', () => {
  it('an intent written before a crash survives it, as pending', () => {
    const dbPath = join(dir, 'journal.sqlite');
    const child = spawnSync(process.execPath, ['--import', 'tsx', fixture, dbPath], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(child.signal).toBe('SIGKILL');
    const id = child.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const journal = createJournal({ dbPath });
    const entry = journal.get(id);
    expect(entry).toMatchObject({
      outcome: 'pending',
      operation: 'placeorder',
      request: { symbol: 'SBIN', quantity: 1 },
    });
    expect(JSON.stringify(entry)).not.toContain('crash-test-key');
    // Reconciliation can still complete it later.
    expect(
      journal.recordOutcome(id, { outcome: 'unknown', error: { kind: 'timeout', message: 'reconciled' } })
        .outcome,
    ).toBe('unknown');
    journal.close();
  });

  it('a second connection reads while the writer is open (WAL)', () => {
    const dbPath = join(dir, 'journal.sqlite');
    const writer = createJournal({ dbPath });
    const reader = createJournal({ dbPath });
    const { id } = writer.recordIntent({
      profileId: 'paper',
      operation: 'placeorder',
      request: { symbol: 'INFY' },
    });
    expect(reader.get(id)?.outcome).toBe('pending');
    writer.recordOutcome(id, { outcome: 'ok', response: { status: 'success', orderid: 'X1' } });
    expect(reader.query({ orderId: 'X1' })).toHaveLength(1);
    writer.close();
    reader.close();
  });
});
