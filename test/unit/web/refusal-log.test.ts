// Refused bridge connections are logged at a bounded rate: a hostile local process can neither flood
// the log nor go unnoticed (the refusals that got no line of their own are counted in the next one).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../../../src-main/core/secrets/index.js';
import { createRefusalLog, REFUSAL_LOG_WINDOW_MS } from '../../../src-main/web/refusal-log.js';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-20T10:00:00+05:30') });
});
afterEach(() => {
  vi.useRealTimers();
});

/** How many refusals the log's lines account for: one per first line, plus every count. */
function accountedFor(entries: { message: string; fields?: Record<string, unknown> }[], reason: string) {
  return entries
    .filter((e) => e.fields?.['reason'] === reason)
    .reduce((n, e) => n + (e.message === 'bridge connection refused' ? 1 : Number(e.fields?.['count'])), 0);
}

describe('refusal log', () => {
  it('1000 refusals over a minute: at most one line per reason per 10 s, and every refusal counted', () => {
    const logger = createMemoryLogger();
    const log = createRefusalLog({ logger });
    for (let i = 0; i < 1000; i++) {
      log.refused(i % 4 === 0 ? 'foreign_origin' : 'no_session');
      vi.advanceTimersByTime(60);
    }
    vi.advanceTimersByTime(REFUSAL_LOG_WINDOW_MS);
    // 60 s of refusals: the first line and a count every 10 s, per reason.
    for (const reason of ['no_session', 'foreign_origin']) {
      const lines = logger.entries.filter((e) => e.fields?.['reason'] === reason);
      expect(lines.length, reason).toBeGreaterThan(1);
      expect(lines.length, reason).toBeLessThanOrEqual(8);
      expect(lines.every((e) => e.level === 'warn')).toBe(true);
    }
    expect(accountedFor(logger.entries, 'no_session')).toBe(750);
    expect(accountedFor(logger.entries, 'foreign_origin')).toBe(250);
    const counted = logger.entries.find(
      (e) => e.message === 'bridge connections refused' && e.fields?.['reason'] === 'no_session',
    );
    expect(counted?.fields).toMatchObject({
      reason: 'no_session',
      count: expect.any(Number),
      seconds: REFUSAL_LOG_WINDOW_MS / 1000,
    });
    log.close();
  });

  it('a burst that stops is still reported: its count comes when its window ends', () => {
    const logger = createMemoryLogger();
    const log = createRefusalLog({ logger });
    for (let i = 0; i < 500; i++) log.refused('wrong_path');
    expect(logger.entries).toEqual([
      { level: 'warn', message: 'bridge connection refused', fields: { reason: 'wrong_path' } },
    ]);
    vi.advanceTimersByTime(REFUSAL_LOG_WINDOW_MS);
    expect(logger.entries[1]).toEqual({
      level: 'warn',
      message: 'bridge connections refused',
      fields: { reason: 'wrong_path', count: 499, seconds: 10 },
    });
    // A quiet window closes with no line; the next refusal gets a line of its own at once.
    vi.advanceTimersByTime(5 * REFUSAL_LOG_WINDOW_MS);
    expect(logger.entries).toHaveLength(2);
    log.refused('wrong_path');
    expect(logger.entries).toHaveLength(3);
    log.close();
  });

  it('close reports what is still uncounted, and leaves no timer behind', () => {
    const logger = createMemoryLogger();
    const log = createRefusalLog({ logger });
    log.refused('no_session');
    log.refused('no_session');
    log.refused('no_session');
    log.close();
    expect(logger.entries.at(-1)).toMatchObject({
      message: 'bridge connections refused',
      fields: { reason: 'no_session', count: 2 },
    });
    expect(vi.getTimerCount()).toBe(0);
  });
});
