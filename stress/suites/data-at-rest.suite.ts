// Data at rest: the core started on a settings.json that is not JSON and a journal database cut
// short. It must start, say what it did (backup kept, defaults used), and keep every journal entry
// SQLite can still read (test/integration/core/data-at-rest.test.ts holds the same as a test).
import { existsSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, PAPER_PROFILE_ID } from '../../src-main/contract/index.js';
import { createJournal } from '../../src-main/core/journal/index.js';
import Database from 'better-sqlite3';
import { LIMITS, restingBuy, startCore } from '../../test/support/core-harness.js';
import { startStressPaper } from '../lib/paper.js';
import type { Paper } from '../../test/support/core-harness.js';
import type { StressSuite, SuiteContext } from '../lib/suite.js';

const WRITTEN = 1000;
/** Where the journal is cut: a share of its size, or 'last page' (2 KB short: inside its last page). */
const CUTS: readonly (number | 'last page')[] = ['last page', 0.95, 0.6, 0.25];

export const suite: StressSuite = {
  name: 'data-at-rest',
  description:
    'corrupt settings.json and a journal cut inside its last page, and to 95 / 60 / 25 %, at start',
  async run(ctx) {
    const paper = await startStressPaper();
    try {
      for (const cut of CUTS) {
        const dataDir = join(ctx.tmpDir, `cut-${cut === 'last page' ? 'last' : cut}`);
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
        const cutTo = cut === 'last page' ? size - 2048 : Math.floor(size * cut);
        truncateSync(dbPath, cutTo);
        const garbage = '{"risk": {"maxQuantityPerOrder": ';
        writeFileSync(join(dataDir, 'settings.json'), garbage);

        const label = cut === 'last page' ? 'inside its last page' : `to ${cut * 100} %`;
        const started = performance.now();
        let h: Awaited<ReturnType<typeof startCore>> | undefined;
        try {
          h = await startCore(paper, { dataDir });
        } catch (err) {
          ctx.check(`starts on a journal cut ${label}`, false, String(err));
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
          // Entries read whole are the oldest, in order, none twice; one whose row was lost but whose
          // index entries were not comes back "unreadable", with no request.
          const whole = kept.filter((e) => e.operation === 'placeorder');
          const inOrder =
            kept.every((e) => e.operation === 'placeorder' || e.operation === 'unreadable') &&
            whole.every((e, i) => (e.request as { quantity?: number } | null)?.quantity === i + 1);
          const settings = await h.core.router.invoke('settings.get', undefined);
          ctx.figure(`cut ${label}: journal bytes`, `${size} → ${cutTo}`);
          ctx.figure(`cut ${label}: entries kept / written`, `${kept.length} / ${WRITTEN}`);
          ctx.figure(`cut ${label}: start time`, `${startMs.toFixed(0)} ms`);
          ctx.check(
            `cut ${label}: the core starts and says the journal was kept aside`,
            !!backup && existsSync(join(dataDir, backup)),
          );
          ctx.check(
            `cut ${label}: every entry read from the backup is in the new journal, oldest first, none twice`,
            read.ok && kept.length === salvaged.intents && inOrder,
            `${kept.length} kept, ${salvaged.intents} salvaged, in order: ${inOrder}`,
          );
          ctx.check(
            `cut ${label}: settings on defaults, the broken file kept as .bak, and said`,
            settings.ok &&
              JSON.stringify(settings.value.risk) === JSON.stringify(DEFAULT_SETTINGS.risk) &&
              readFileSync(join(dataDir, 'settings.json.bak'), 'utf8') === garbage &&
              warnings.some((e) => e.message.includes('settings.json') && e.message.includes('.bak')),
          );
        } finally {
          await h.stop();
        }
      }
      await watcherCut(ctx, paper);
    } finally {
      await paper.stop();
    }
  },
};

/** The watcher's seen store cut to 90 %: the core starts, and what the store still holds is not news. */
async function watcherCut(ctx: SuiteContext, paper: Paper): Promise<void> {
  const ORDERS = 200;
  const dataDir = join(ctx.tmpDir, 'watcher-cut');
  mkdirSync(dataDir, { recursive: true });
  const first = await startCore(paper, { dataDir });
  const placed = new Set<string>();
  try {
    await first.core.router.invoke('settings.update', LIMITS);
    await first.core.pollNow();
    for (let i = 0; i < ORDERS; i++) placed.add((await restingBuy(paper, first, 'ITC', i + 1)).orderid);
    await first.core.pollNow();
  } finally {
    await first.core.stop();
  }
  const dbPath = join(dataDir, 'watcher.db');
  truncateSync(dbPath, Math.floor(statSync(dbPath).size * 0.9));
  const h = await startCore(paper, { dataDir, keychain: first.keychain });
  try {
    const warning = h.logger.entries.find((e) => e.level === 'warn' && e.message.includes('watcher.db'));
    const backup = warning?.message.match(/watcher\.db\.corrupt-\d+/)?.[0];
    const db = new Database(dbPath, { readonly: true });
    const kept = new Set(
      (db.prepare('SELECT orderid FROM seen_orders').all() as { orderid: string }[]).map((r) => r.orderid),
    );
    db.close();
    const events = await h.during(() => h.core.pollNow());
    const news = events
      .filter((e) => e.name === 'orders.accepted')
      .map((e) => (e.payload as { order: { orderid: string } }).order.orderid);
    const repeated = news.filter((id) => kept.has(id)).length;
    ctx.figure('watcher.db cut to 90 %: seen orders kept / placed', `${kept.size} / ${ORDERS}`);
    ctx.figure('watcher.db cut to 90 %: orders reported again (rows lost)', news.length);
    ctx.check(
      'watcher.db cut to 90 %: the core starts, the file kept aside, said',
      !!backup && existsSync(join(dataDir, backup)),
    );
    ctx.check(
      'watcher.db cut to 90 %: no order it still remembers reported again, each forgotten one once',
      repeated === 0 &&
        new Set(news).size === news.length &&
        news.every((id) => placed.has(id)) &&
        // …and every order whose row was lost is news once: nothing missed either.
        news.length === ORDERS - kept.size,
      `${repeated} remembered yet reported, ${news.length} reported for ${ORDERS - kept.size} forgotten`,
    );
  } finally {
    await h.stop();
  }
}
