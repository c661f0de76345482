// The journal's flush to disk: commits are written into the WAL before they return, and the WAL is
// fsynced on the thread pool (durable(), and in the background after every write), not by SQLite
// inside the commit.
import * as fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createJournal, type Journal } from '../../../../src-main/core/journal/index.js';
import { openWalSync } from '../../../../src-main/core/journal/wal-sync.js';

/** Inodes of the files fsynced through node:fs, in call order. */
const flushed: number[] = [];
/** Set: the next fsync fails as a disk would (EIO). */
let failNext = false;
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    fsync: (fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => {
      flushed.push(real.fstatSync(fd).ino);
      if (failNext) {
        failNext = false;
        setImmediate(() => cb(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })));
      } else real.fsync(fd, cb);
    },
  };
});

let dir: string;
let dbPath: string;
let journal: Journal;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orderdesk-walsync-'));
  dbPath = join(dir, 'journal.db');
  journal = createJournal({ dbPath });
  flushed.length = 0;
});
afterEach(async () => {
  journal.close();
  await rm(dir, { recursive: true, force: true });
});

const intent = { profileId: 'paper', operation: 'placeorder', request: { symbol: 'SBIN', quantity: 1 } };
const walInode = () => fs.statSync(`${dbPath}-wal`).ino;
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('journal flush to disk', () => {
  it('durable() fsyncs the WAL file the commit was written to, once the turn is over', async () => {
    const walBefore = fs.statSync(`${dbPath}-wal`).size;
    journal.recordIntent(intent);
    // Written (the OS has it: a crash of the app cannot lose it) before recordIntent returned.
    expect(fs.statSync(`${dbPath}-wal`).size).toBeGreaterThan(walBefore);
    const done = journal.durable();
    // Not in this turn: the order the intent is for goes out first.
    await Promise.resolve();
    expect(flushed).toEqual([]);
    await done;
    // One fsync for the turn: the background flush and durable() are the same one.
    await turn();
    expect(flushed).toEqual([walInode()]);
  });

  it('a failed flush is reported by the caller waiting for it; one nobody waits for, by onSyncError', async () => {
    const failures: unknown[] = [];
    journal.close();
    journal = createJournal({ dbPath, onSyncError: (err) => failures.push(err) });
    journal.recordIntent(intent);
    failNext = true;
    await expect(journal.durable()).rejects.toThrow('EIO');
    expect(failures).toEqual([]);
    journal.recordIntent(intent);
    failNext = true;
    await turn();
    await turn();
    expect(failures).toHaveLength(1);
    expect(String(failures[0])).toContain('EIO');
  });

  it('every write is flushed in the background: once for all the commits of a turn', async () => {
    const { id } = journal.recordIntent(intent);
    journal.recordOutcome(id, { outcome: 'ok', response: { status: 'success', orderid: 'A1' } });
    expect(flushed).toEqual([]);
    await turn();
    await turn();
    expect(flushed).toEqual([walInode()]);
    journal.recordOutcomeLater(
      journal.recordIntent(intent).id,
      { outcome: 'ok', response: { status: 'success', orderid: 'A2' } },
      () => undefined,
    );
    await turn();
    await turn();
    // The intent's turn, then the turn after it that committed the outcome.
    expect(flushed).toEqual([walInode(), walInode(), walInode()]);
  });

  it('after close a flush has nothing left to do and resolves at once', async () => {
    journal.recordIntent(intent);
    journal.close();
    await expect(journal.durable()).resolves.toBeUndefined();
    journal = createJournal({ dbPath });
    expect(journal.query()).toHaveLength(1);
  });

  it('no WAL file: no flusher (the journal keeps SQLite flushing in each commit instead)', () => {
    expect(openWalSync(join(dir, 'absent.db'))).toBeUndefined();
  });
});
