// Data at rest: the core started on a settings.json that is not JSON and a journal database cut
// short. It must start, say what it did (backup kept, defaults used), and keep every journal entry
// SQLite can still read (test/integration/core/data-at-rest.test.ts holds the same as a test).
import { existsSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, PAPER_PROFILE_ID } from '../../src-main/contract/index.js';
import { createJournal } from '../../src-main/core/journal/index.js';
import { startCore } from '../../test/integration/core/core-harness.js';
import { startStressPaper } from '../lib/paper.js';
import type { StressSuite } from '../lib/suite.js';

const WRITTEN = 1000;
const KEPT_FRACTIONS = [0.95, 0.6, 0.25];

export const suite: StressSuite = {
  name: 'data-at-rest',
  description: 'corrupt settings.json and a journal truncated to 95 / 60 / 25 % at start',
  async run(ctx) {
    const paper = await startStressPaper();
    try {
      for (const fraction of KEPT_FRACTIONS) {
        const dataDir = join(ctx.tmpDir, `cut-${fraction}`);
        mkdirSync(dataDir, { recursive: true });
        const dbPath = join(dataDir, 'journal.db');
        const journal = createJournal({ dbPath });
        for (let i = 0; i < WRITTEN; i++) {
          const { id } = journal.recordIntent({
            profileId: PAPER_PROFILE_ID,
            operation: 'placeorder',
            request: { exchange: 'NSE', symbol: 'SBIN', action: 'BUY', quantity: i + 1 },
          });
          journal.recordOutcome(id, { outcome: 'ok', response: { status: 'success', orderid: `7${i}` } });
        }
        journal.close();
        const size = statSync(dbPath).size;
        truncateSync(dbPath, Math.floor(size * fraction));
        const garbage = '{"risk": {"maxQuantityPerOrder": ';
        writeFileSync(join(dataDir, 'settings.json'), garbage);

        const started = performance.now();
        let h: Awaited<ReturnType<typeof startCore>> | undefined;
        try {
          h = await startCore(paper, { dataDir });
        } catch (err) {
          ctx.check(`starts on a journal cut to ${fraction * 100} %`, false, String(err));
          continue;
        }
        try {
          const startMs = performance.now() - started;
          const warnings = h.logger.entries.filter((e) => e.level === 'warn');
          const journalWarning = warnings.find((e) => /journal\.db\.corrupt-\d+/.test(e.message));
          const backup = journalWarning?.message.match(/journal\.db\.corrupt-\d+/)?.[0];
          const salvaged = (journalWarning?.fields?.salvaged ?? {}) as Record<string, number>;
          const read = await h.core.router.invoke('journal.query', { order: 'asc', limit: 10_000 });
          const kept = read.ok ? read.value : [];
          const inOrder = kept.every((e, i) => (e.request as { quantity?: number }).quantity === i + 1);
          const settings = await h.core.router.invoke('settings.get', undefined);
          const label = `cut to ${fraction * 100} %`;
          ctx.figure(`${label}: journal bytes`, `${size} → ${Math.floor(size * fraction)}`);
          ctx.figure(`${label}: entries kept / written`, `${kept.length} / ${WRITTEN}`);
          ctx.figure(`${label}: start time`, `${startMs.toFixed(0)} ms`);
          ctx.check(
            `${label}: the core starts and says the journal was kept aside`,
            !!backup && existsSync(join(dataDir, backup)),
          );
          ctx.check(
            `${label}: every entry read from the backup is in the new journal, oldest first, none twice`,
            read.ok && kept.length === salvaged.intents && inOrder,
            `${kept.length} kept, ${salvaged.intents} salvaged, in order: ${inOrder}`,
          );
          ctx.check(
            `${label}: settings on defaults, the broken file kept as .bak, and said`,
            settings.ok &&
              JSON.stringify(settings.value.risk) === JSON.stringify(DEFAULT_SETTINGS.risk) &&
              readFileSync(join(dataDir, 'settings.json.bak'), 'utf8') === garbage &&
              warnings.some((e) => e.message.includes('settings.json') && e.message.includes('.bak')),
          );
        } finally {
          await h.stop();
        }
      }
    } finally {
      await paper.stop();
    }
  },
};
