import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJournal, journaled, type Journal } from '../../../../src-main/core/journal/index.js';
import { createMemoryLogger } from '../../../../src-main/core/secrets/index.js';

let journal: Journal;
beforeEach(() => {
  journal = createJournal({ dbPath: ':memory:' });
});
afterEach(() => journal.close());

const intent = {
  profileId: 'paper',
  operation: 'placeorder',
  request: { apikey: 'k-123456789', symbol: 'SBIN' },
};

describe('journaled', () => {
  it('writes the intent before calling and the outcome after', async () => {
    let seenDuringCall: string | undefined;
    const result = await journaled(journal, intent, async () => {
      seenDuringCall = journal.query()[0]?.outcome;
      return { ok: true as const, value: { status: 'success', orderid: 'O1' } };
    });
    expect(seenDuringCall).toBe('pending');
    expect(result).toEqual({ ok: true, value: { status: 'success', orderid: 'O1' } });
    expect(journal.query()[0]).toMatchObject({
      outcome: 'ok',
      orderIds: ['O1'],
      request: { symbol: 'SBIN' },
    });
    expect(journal.query()[0]?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('maps an unknown outcome and an error', async () => {
    await journaled(journal, intent, async () => ({
      ok: false as const,
      error: { kind: 'unknown_outcome' as const, message: 'outcome unknown — reconciling' },
    }));
    await journaled(journal, intent, async () => ({
      ok: false as const,
      error: { kind: 'bad_input' as const, message: 'Invalid symbol', httpStatus: 400 },
    }));
    expect(
      journal.query({ order: 'asc' }).map((e) => [e.outcome, e.error?.kind, e.error?.httpStatus]),
    ).toEqual([
      ['unknown', 'unknown_outcome', undefined],
      ['error', 'bad_input', 400],
    ]);
  });

  it('does not call when the intent cannot be written', async () => {
    let called = false;
    journal.close();
    await expect(
      journaled(journal, intent, async () => {
        called = true;
        return { ok: true as const, value: {} };
      }),
    ).rejects.toThrow();
    expect(called).toBe(false);
    journal = createJournal({ dbPath: ':memory:' });
  });

  it('records a thrown call as unknown and rethrows', async () => {
    await expect(
      journaled(journal, intent, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(journal.query()[0]).toMatchObject({
      outcome: 'unknown',
      error: { kind: 'exception', message: 'boom' },
    });
  });

  it('returns the result even if the outcome cannot be written, and says so in the log', async () => {
    const logger = createMemoryLogger();
    // The database goes away during the call: the outcome's commit, after the answer, fails.
    const r = await journaled(
      journal,
      intent,
      async () => {
        journal.close();
        return { ok: true as const, value: 1 };
      },
      logger,
    );
    expect(r).toEqual({ ok: true, value: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(logger.entries[0]).toMatchObject({
      level: 'error',
      message: 'journal outcome not written',
      fields: { reason: expect.stringMatching(/not open/) },
    });
    journal = createJournal({ dbPath: ':memory:' });
  });
});

describe("journaled: the intent's flush to disk runs while the order travels", () => {
  /** The memory journal with a flush that finishes only when the test says. */
  function slowDisk() {
    const events: string[] = [];
    let finish: (err?: Error) => void = () => undefined;
    const j = {
      recordIntent: (input: Parameters<Journal['recordIntent']>[0]) => {
        events.push('intent committed');
        return journal.recordIntent(input);
      },
      recordOutcomeLater: journal.recordOutcomeLater,
      durable: () => {
        events.push('flush started');
        return new Promise<void>((resolve, reject) => {
          finish = (err) => {
            events.push('flush done');
            if (err) reject(err);
            else resolve();
          };
        });
      },
    };
    return { j, events, finish: (err?: Error) => finish(err) };
  }

  it('sends before the flush is done, and answers only once it is', async () => {
    const disk = slowDisk();
    let answered = false;
    const pending = journaled(disk.j, intent, async () => {
      disk.events.push('sent');
      return { ok: true as const, value: { status: 'success', orderid: 'O9' } };
    }).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(disk.events).toEqual(['intent committed', 'flush started', 'sent']);
    expect(answered).toBe(false);
    disk.finish();
    expect(await pending).toEqual({ ok: true, value: { status: 'success', orderid: 'O9' } });
    expect(disk.events.at(-1)).toBe('flush done');
  });

  it('a flush that fails is said in the log; the order keeps its answer', async () => {
    const disk = slowDisk();
    const logger = createMemoryLogger();
    const pending = journaled(
      disk.j,
      intent,
      async () => ({ ok: true as const, value: { status: 'success', orderid: 'O10' } }),
      logger,
    );
    disk.finish(new Error('EIO: i/o error, fsync'));
    expect((await pending).ok).toBe(true);
    expect(logger.entries).toContainEqual(
      expect.objectContaining({ level: 'error', message: 'journal intent not flushed to disk' }),
    );
  });
});

describe('journaled on a file: the outcome is committed after the answer', () => {
  it('answers with the outcome not yet on disk, and commits it in the same turn of the loop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orderdesk-journaled-'));
    const dbPath = join(dir, 'journal.sqlite');
    const onDisk = () => {
      const db = new Database(dbPath, { readonly: true });
      const n = (db.prepare('SELECT count(*) AS n FROM outcomes').get() as { n: number }).n;
      db.close();
      return n;
    };
    const fileJournal = createJournal({ dbPath });
    try {
      // The intent's own flush, as journaled() starts it, so the call can wait for that very one.
      const flushes: Promise<void>[] = [];
      const watched = {
        recordIntent: fileJournal.recordIntent,
        recordOutcomeLater: fileJournal.recordOutcomeLater,
        durable: () => {
          const flushed = fileJournal.durable();
          flushes.push(flushed);
          return flushed;
        },
      };
      const r = await journaled(watched, intent, async () => {
        // A gateway slower than the disk: the intent's flush is done when the answer comes.
        await Promise.all(flushes);
        return { ok: true as const, value: { status: 'success', orderid: 'O7' } };
      });
      expect(r.ok).toBe(true);
      expect(onDisk()).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(onDisk()).toBe(1);
      expect(fileJournal.query()[0]).toMatchObject({ outcome: 'ok', orderIds: ['O7'] });
    } finally {
      fileJournal.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
