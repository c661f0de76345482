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

  it('returns the result even if the outcome cannot be written', async () => {
    const logger = createMemoryLogger();
    const broken = {
      recordIntent: journal.recordIntent,
      recordOutcome: () => {
        throw new Error('disk full');
      },
    };
    const r = await journaled(broken, intent, async () => ({ ok: true as const, value: 1 }), logger);
    expect(r).toEqual({ ok: true, value: 1 });
    expect(logger.entries[0]).toMatchObject({ level: 'error', fields: { reason: 'disk full' } });
  });
});
