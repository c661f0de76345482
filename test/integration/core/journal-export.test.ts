// journal.exportCsv over the router: the shell's chooseSavePath port picks the file, the answer is
// where it went and how many rows, or a typed "cancelled"; a host without the port and a path that
// cannot be written are typed refusals, never a crash.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChooseSavePath } from '../../../src-main/core/index.js';
import { LIMITS, startCore, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();

/** A save port that records what it was offered and answers `pick(dataDir, suggested)`. */
function savePort(pick: (dataDir: string, suggested: string) => string | null) {
  const offered: string[] = [];
  let dataDir = '';
  const port: ChooseSavePath = async (suggested) => {
    offered.push(suggested);
    return pick(dataDir, suggested);
  };
  return { port, offered, setDir: (d: string) => (dataDir = d) };
}

async function withCore(
  save: ReturnType<typeof savePort> | { port: undefined; setDir?: undefined },
  fn: (h: Harness) => Promise<void>,
): Promise<void> {
  const h = await startCore(paper, { ports: { chooseSavePath: save.port } });
  save.setDir?.(h.dataDir);
  try {
    await h.core.router.invoke('settings.update', LIMITS);
    await fn(h);
  } finally {
    await h.stop();
  }
}

const place = (h: Harness, quantity: number) =>
  h.core.router.invoke('orders.place', { exchange: 'NSE', symbol: 'SBIN', action: 'BUY', quantity });

describe('journal.exportCsv', () => {
  it('writes every row of the active profile to the file the shell picked, 0600, oldest first', async () => {
    const save = savePort((dir, name) => join(dir, name));
    await withCore(save, async (h) => {
      for (const q of [1, 2, 3]) expect((await place(h, q)).ok).toBe(true);
      const r = await h.core.router.invoke('journal.exportCsv', {});
      if (!r.ok || r.value.kind !== 'saved') throw new Error(JSON.stringify(r));
      expect(save.offered).toEqual(['orderdesk-journal-paper-2026-11-20.csv']);
      expect(r.value).toEqual({ kind: 'saved', path: join(h.dataDir, save.offered[0] ?? ''), rows: 3 });
      const lines = readFileSync(r.value.path, 'utf8').split('\r\n');
      expect(lines[0]).toMatch(/^time_ist,id,profile,operation,/);
      expect(lines.slice(1, -1).map((l) => l.match(/""quantity"":(\d)/)?.[1])).toEqual(['1', '2', '3']);
      expect(lines.at(-1)).toBe('');
      expect(statSync(r.value.path).mode & 0o777).toBe(0o600);
      // Filters apply; newest first when asked.
      const desc = await h.core.router.invoke('journal.exportCsv', { order: 'desc', outcome: 'ok' });
      if (!desc.ok || desc.value.kind !== 'saved') throw new Error(JSON.stringify(desc));
      const descLines = readFileSync(desc.value.path, 'utf8').split('\r\n');
      expect(descLines.slice(1, -1).map((l) => l.match(/""quantity"":(\d)/)?.[1])).toEqual(['3', '2', '1']);
      // A limit is not an export's business: refused like any unknown field.
      expect(await h.core.router.invoke('journal.exportCsv', { limit: 5 })).toMatchObject({
        ok: false,
        error: { kind: 'invalid_input', message: expect.stringMatching(/unknown field\(s\): limit/) },
      });
    });
  });

  it('answers cancelled, and writes nothing, when the user cancels the dialog', async () => {
    const save = savePort(() => null);
    await withCore(save, async (h) => {
      await place(h, 1);
      const before = readdirSync(h.dataDir);
      expect(await h.core.router.invoke('journal.exportCsv')).toEqual({
        ok: true,
        value: { kind: 'cancelled' },
      });
      expect(save.offered).toHaveLength(1);
      expect(readdirSync(h.dataDir)).toEqual(before);
    });
  });

  it('a path that cannot be written is an io error naming it; a relative one is refused', async () => {
    let answer = '';
    const save = savePort((dir) =>
      answer === 'relative' ? 'journal.csv' : join(dir, 'missing', 'journal.csv'),
    );
    await withCore(save, async (h) => {
      await place(h, 1);
      const missing = await h.core.router.invoke('journal.exportCsv');
      expect(missing).toEqual({
        ok: false,
        error: {
          kind: 'io',
          message: `the journal could not be saved to ${join(h.dataDir, 'missing', 'journal.csv')} (ENOENT)`,
        },
      });
      answer = 'relative';
      expect(await h.core.router.invoke('journal.exportCsv')).toMatchObject({
        ok: false,
        error: { kind: 'io', message: expect.stringMatching(/full path/) },
      });
      expect(existsSync(join(process.cwd(), 'journal.csv'))).toBe(false);
    });
  });

  it('a host without a save port refuses the export as not offered', async () => {
    await withCore({ port: undefined }, async (h) => {
      expect(await h.core.router.invoke('journal.exportCsv')).toMatchObject({
        ok: false,
        error: { kind: 'not_offered' },
      });
    });
  });
});
