// Data damage: seeded random bytes over random pages in the middle of the journal and of the embedded
// paper gateway's ledger (one, the other, or both per round), then the core started on them. The
// fuzz suite's file is full (500 lines), so mid-file damage is a suite of its own beside it.
// Invariants, every round: the core starts; a damaged journal (as SQLite's quick check on a copy finds
// it) is reported with saved / total counts and the damaged file kept, and what is saved reads back;
// a damaged ledger leaves the paper profile unavailable with the file named, its orders refused as
// `storage`, and "reset the paper account" brings it back; no order reaches the gateway that is not
// in the journal (the gateway's book for the round's account against the journal's order ids).
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type {
  IpcResult,
  JournalEntry,
  ProfilesList,
  SessionSnapshot,
} from '../../src-main/contract/index.js';
import { embeddedPaperGateway } from '../../src-main/composition/paper-port.js';
import { sqlitePageSize } from '../../test/support/damage.js';
import { sbinMarketBuy as order } from '../../test/support/orders.js';
import { LIMITS, startCore, type Harness, type Paper } from '../../test/support/core-harness.js';
import { createRng, type Rng } from '../lib/rng.js';
import type { StressSuite, SuiteContext } from '../lib/suite.js';

const ROUNDS = Number(process.env.STRESS_DAMAGE_ROUNDS ?? 30);
/** Orders in the journal and the ledger before the damage. */
const BEFORE = 30;
/** Orders placed in each round after the start (and the reset, when the ledger was damaged). */
const AFTER = 3;
/** The paper gateway's order budget is 10 a second: orders are paced under it. */
const PACE_MS = 120;
const JOURNAL = 'journal.db';
const LEDGER = join('paper', 'paper.db');
/** Every core here runs the embedded paper gateway on its own data dir: the shared one is never used. */
const NO_SHARED_PAPER = {} as Paper;
const ports = { startPaperGateway: embeddedPaperGateway };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function value<T>(r: IpcResult<T>, what: string): T {
  if (!r.ok) throw new Error(`${what}: ${r.error.kind} ${r.error.message}`);
  return r.value;
}

/**
 * Seeded random bytes over `count` random pages past the first (the header and schema page): a
 * whole page, or a span inside one. Returns the pages hit (1-based) for the figures.
 */
function damagePages(file: string, rng: Rng, count: number): number[] {
  const bytes = readFileSync(file);
  const pageSize = sqlitePageSize(file);
  const pages = Math.floor(bytes.length / pageSize);
  const hit: number[] = [];
  for (let n = 0; n < count && pages > 1; n++) {
    const page = rng.int(2, pages);
    const whole = rng.chance(0.6);
    const from = whole ? 0 : rng.int(0, pageSize - 16);
    const length = whole ? pageSize : rng.int(16, pageSize - from);
    const start = (page - 1) * pageSize + from;
    for (let i = 0; i < length; i++) bytes[start + i] = rng.int(0, 255);
    hit.push(page);
  }
  writeFileSync(file, bytes);
  return hit;
}

/** SQLite's own verdict on a copy of the file (with its WAL): damaged when its quick check fails. */
function quickCheckFails(file: string, probeDir: string): boolean {
  mkdirSync(probeDir, { recursive: true });
  const probe = join(probeDir, 'probe.db');
  for (const suffix of ['', '-wal'])
    if (existsSync(file + suffix)) copyFileSync(file + suffix, probe + suffix);
  try {
    const db = new Database(probe);
    try {
      return db.pragma('quick_check(1)', { simple: true }) !== 'ok';
    } finally {
      db.close();
    }
  } catch {
    return true;
  } finally {
    rmSync(probeDir, { recursive: true, force: true });
  }
}

/** The order ids the embedded gateway's book holds for this core's own paper account. */
async function gatewayOrderIds(h: Harness): Promise<string[]> {
  const list = value(await h.core.router.invoke('profiles.list'), 'profiles.list') as ProfilesList;
  const url = list.profiles.find((p) => p.kind === 'paper')?.baseUrl;
  const key = await h.keychain.keytar.getPassword('OrderDesk', 'paper');
  if (!url || !key) throw new Error('no paper gateway URL or key');
  const r = await fetch(`${url}/api/v1/orderbook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apikey: key }),
  });
  const body = (await r.json()) as { data?: { orders?: { orderid: string }[] } };
  return (body.data?.orders ?? []).map((o) => o.orderid);
}

/** The journal as the core reads it (an unreadable one said as a problem). */
async function journalEntries(h: Harness, say: (p: string) => void): Promise<JournalEntry[] | undefined> {
  const r = await h.core.router.invoke('journal.query', { order: 'asc', limit: 10_000 });
  if (!r.ok) say(`journal.query: ${r.error.kind} ${r.error.message}`);
  return r.ok ? r.value : undefined;
}

/** The data dir every round copies: BEFORE market orders in its journal and its paper ledger. */
async function makeBase(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const h = await startCore(NO_SHARED_PAPER, { dataDir: dir, ports });
  try {
    await h.core.router.invoke('settings.update', LIMITS);
    for (let i = 1; i <= BEFORE; i++) {
      value(await h.core.router.invoke('orders.place', order(i)), `base order ${i}`);
      await sleep(PACE_MS);
    }
  } finally {
    await h.core.stop();
  }
}

type Target = 'journal' | 'ledger' | 'both';

interface Tally {
  starts: number;
  journalDamaged: number;
  journalSaved: number;
  journalHeld: number;
  ledgerDamaged: number;
  resets: number;
  placed: number;
  internal: number;
  unjournalled: number;
  startMs: number[];
  problems: string[];
}

async function round(ctx: SuiteContext, base: string, r: number, rng: Rng, t: Tally): Promise<void> {
  const dir = join(ctx.tmpDir, `round-${r}`);
  cpSync(base, dir, { recursive: true });
  const target = rng.pick<Target>(['journal', 'ledger', 'both']);
  const say = (problem: string) => t.problems.push(`round ${r} (${target}): ${problem}`);
  const journalFile = join(dir, JOURNAL);
  const ledgerFile = join(dir, LEDGER);
  if (target !== 'ledger') damagePages(journalFile, rng, rng.int(1, 2));
  if (target !== 'journal') damagePages(ledgerFile, rng, rng.int(1, 2));
  const journalBad = quickCheckFails(journalFile, join(ctx.tmpDir, 'probe'));
  const ledgerBad = quickCheckFails(ledgerFile, join(ctx.tmpDir, 'probe'));

  const started = performance.now();
  let h: Harness;
  try {
    // A fresh keychain: a paper account of the round's own, so its book holds only this round's orders.
    h = await startCore(NO_SHARED_PAPER, { dataDir: dir, ports });
  } catch (err) {
    say(`the core did not start: ${String(err)}`);
    return;
  }
  try {
    const snap = value(await h.core.router.invoke('session.snapshot'), 'session.snapshot') as SessionSnapshot;
    t.startMs.push(performance.now() - started);
    t.starts += 1;
    const notice = snap.storage?.journal;
    const down = snap.storage?.paper;
    const entries = await journalEntries(h, say);

    // The journal: reported exactly when SQLite finds it damaged; counts that add up; the file kept.
    if (!!notice !== journalBad) say(`journal damaged by quick check: ${journalBad}, reported: ${!!notice}`);
    if (notice) {
      t.journalDamaged += 1;
      t.journalSaved += notice.saved;
      t.journalHeld += notice.total ?? BEFORE;
      if (notice.total !== null && notice.total !== BEFORE) say(`total ${notice.total}, not ${BEFORE}`);
      if (notice.saved > (notice.total ?? BEFORE)) say(`saved ${notice.saved} of ${notice.total}`);
      if (!existsSync(notice.backupPath)) say(`the damaged journal is not at ${notice.backupPath}`);
      if (!/^The journal was damaged: \d+ (of \d+ )?entries saved/.test(notice.message))
        say(`the notice reads "${notice.message}"`);
      if (entries?.length !== notice.saved) say(`${entries?.length} entries read, ${notice.saved} saved`);
    } else if (entries?.length !== BEFORE) say(`undamaged journal reads ${entries?.length} of ${BEFORE}`);

    // The ledger: unavailable exactly when SQLite finds it damaged, named; refused; reset brings it back.
    if (!!down !== ledgerBad) say(`ledger damaged by quick check: ${ledgerBad}, unavailable: ${!!down}`);
    if (down) {
      t.ledgerDamaged += 1;
      if (down.file !== ledgerFile) say(`unavailable names ${down.file}`);
      const refused = await h.core.router.invoke('orders.place', order(1));
      if (refused.ok || refused.error.kind !== 'storage')
        say(`an order on the unavailable paper answered ${JSON.stringify(refused)}`);
      const reset = await h.core.router.invoke('profiles.resetPaper');
      if (!reset.ok) say(`reset refused: ${reset.error.message}`);
      else if (!existsSync(reset.value.backupPath))
        say(`the damaged ledger is not at ${reset.value.backupPath}`);
      else t.resets += 1;
    }

    // Orders after the start: each goes through and is journalled; the gateway's book holds no other.
    for (let i = 1; i <= AFTER; i++) {
      const placed = await h.core.router.invoke('orders.place', order(100 + r * 10 + i));
      if (placed.ok) t.placed += 1;
      else if (placed.error.kind === 'internal') {
        t.internal += 1;
        say(`order ${i} answered internal: ${placed.error.message}`);
      } else say(`order ${i} refused: ${placed.error.kind} ${placed.error.message}`);
      await sleep(PACE_MS);
    }
    const journalled = new Set((await journalEntries(h, say))?.flatMap((e) => e.orderIds) ?? []);
    const sent = await gatewayOrderIds(h);
    const missing = sent.filter((id) => !journalled.has(id));
    t.unjournalled += missing.length;
    if (sent.length !== AFTER) say(`the gateway's book holds ${sent.length} orders, ${AFTER} placed`);
  } finally {
    await h.core.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const suite: StressSuite = {
  name: 'data-damage',
  description: `${ROUNDS} rounds of random bytes over middle pages of the journal and the paper ledger, at start`,
  async run(ctx) {
    const rng = createRng(ctx.seed ^ 0x0da7a);
    const base = join(ctx.tmpDir, 'base');
    let t0 = performance.now();
    await makeBase(base);
    ctx.figure(
      'base: orders, journal bytes, ledger bytes',
      `${BEFORE}, ${statSync(join(base, JOURNAL)).size}, ${statSync(join(base, LEDGER)).size}`,
    );
    ctx.figure('base: time', `${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const t: Tally = {
      starts: 0,
      journalDamaged: 0,
      journalSaved: 0,
      journalHeld: 0,
      ledgerDamaged: 0,
      resets: 0,
      placed: 0,
      internal: 0,
      unjournalled: 0,
      startMs: [],
      problems: [],
    };
    t0 = performance.now();
    for (let r = 1; r <= ROUNDS; r++) await round(ctx, base, r, rng, t);
    const sorted = [...t.startMs].sort((a, b) => a - b);
    ctx.figure('rounds', ROUNDS);
    ctx.figure('rounds: time', `${((performance.now() - t0) / 1000).toFixed(1)} s`);
    ctx.figure('core started', `${t.starts} / ${ROUNDS}`);
    ctx.figure(
      'start time (median / max)',
      `${sorted[sorted.length >> 1]?.toFixed(0)} / ${sorted.at(-1)?.toFixed(0)} ms`,
    );
    ctx.figure('journals found damaged', t.journalDamaged);
    ctx.figure('journal entries saved / held (damaged rounds)', `${t.journalSaved} / ${t.journalHeld}`);
    ctx.figure('ledgers found damaged / reset', `${t.ledgerDamaged} / ${t.resets}`);
    ctx.figure('orders placed after the start', `${t.placed} / ${ROUNDS * AFTER}`);
    ctx.check('the core starts on every damaged data dir', t.starts === ROUNDS);
    ctx.check(
      'damage reported exactly when SQLite finds it, counts and kept files right, reset brings paper back',
      t.problems.length === 0,
      t.problems.slice(0, 5).join('; '),
    );
    ctx.check('no order answered internal', t.internal === 0, `${t.internal} internal`);
    ctx.check(
      'no order in the gateway book that is not in the journal',
      t.unjournalled === 0,
      `${t.unjournalled}`,
    );
  },
};
