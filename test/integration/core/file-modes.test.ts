// Data at rest is per-user: every file the app writes with orders, settings or key metadata is 0600
// and every directory it keeps them in 0700 (POSIX; Windows relies on the profile's ACL). Checked by
// stat after real use: a core that saved settings, placed an order and exported its journal (browser
// mode's exports/ folder), the paper gateway's own files, and a data dir an older build left open.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock } from '../../../src-main/web/data-dir-lock.js';
import { exportsSavePath } from '../../../src-main/web/export-path.js';
import { startTestGateway } from '../../support/paper-gateway.js';
import { LIMITS, restingBuy, startCore, usePaper } from '../../support/core-harness.js';

const paper = usePaper();
const scratch = mkdtempSync(join(tmpdir(), 'file-modes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const modeOf = (p: string) => statSync(p).mode & 0o777;
const octal = (m: number) => `0${m.toString(8)}`;

/** Every path under `dir` (itself included) with its mode in octal, for one readable comparison. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = { '.': octal(modeOf(dir)) };
  const walk = (d: string, rel: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      out[r] = octal(modeOf(p));
      if (e.isDirectory()) walk(p, r);
    }
  };
  walk(dir, '');
  return out;
}

describe.skipIf(process.platform === 'win32')('file modes', () => {
  it('the core: data dir 0700; settings, journal (+ -wal/-shm), watcher state and exports 0600', async () => {
    const dataDir = join(scratch, 'core', 'OrderDesk');
    // Browser mode's entry: the lock makes the data dir, exports go to <dataDir>/exports.
    const lock = acquireDataDirLock(dataDir);
    expect(lock.ok).toBe(true);
    const h = await startCore(paper, { dataDir, ports: { chooseSavePath: exportsSavePath(dataDir) } });
    try {
      expect((await h.core.router.invoke('settings.update', LIMITS)).ok).toBe(true);
      await restingBuy(paper, h, 'SBIN', 1);
      const exported = await h.core.router.invoke('journal.exportCsv', {});
      expect(exported.ok).toBe(true);
      const found = modes(dataDir);
      // While the core runs, SQLite's WAL files exist: they must be private too.
      for (const f of ['settings.json', 'journal.db', 'journal.db-wal', 'journal.db-shm'])
        expect(found[f], f).toBe('0600');
      expect(Object.keys(found).some((p) => p.startsWith('exports/') && p.endsWith('.csv'))).toBe(true);
      for (const [p, m] of Object.entries(found)) {
        const isDir = statSync(join(dataDir, p)).isDirectory();
        expect(m, p).toBe(isDir ? '0700' : '0600');
      }
    } finally {
      await h.stop();
      if (lock.ok) lock.lock.release();
    }
  });

  it('the paper gateway: its data dir 0700, ledger (+ -wal/-shm) and key store 0600', async () => {
    const dataDir = join(scratch, 'paper', 'data');
    const gw = await startTestGateway({ dataDir });
    try {
      const placed = await gw.api('placeorder', gw.apiKey, {
        strategy: 'modes',
        exchange: 'NSE',
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 1,
        pricetype: 'MARKET',
        product: 'MIS',
      });
      expect(placed.body['status']).toBe('success');
      const found = modes(dataDir);
      for (const f of ['paper.db', 'paper.db-wal', 'paper.db-shm', 'keys.json'])
        expect(found[f], f).toBe('0600');
      for (const [p, m] of Object.entries(found)) {
        const isDir = statSync(join(dataDir, p)).isDirectory();
        expect(m, p).toBe(isDir ? '0700' : '0600');
      }
    } finally {
      await gw.stop();
    }
  });

  it('a data dir an older build left world-readable is tightened on start', async () => {
    const dataDir = join(scratch, 'old', 'OrderDesk');
    mkdirSync(dataDir, { recursive: true, mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'journal.db'), '', { mode: 0o644 });
    chmodSync(join(dataDir, 'journal.db'), 0o644);
    const lock = acquireDataDirLock(dataDir);
    expect(lock.ok).toBe(true);
    const h = await startCore(paper, { dataDir });
    try {
      expect(octal(modeOf(dataDir))).toBe('0700');
      expect(octal(modeOf(join(dataDir, 'journal.db')))).toBe('0600');
      expect(existsSync(join(dataDir, 'journal.db-wal'))).toBe(true);
      expect(octal(modeOf(join(dataDir, 'journal.db-wal')))).toBe('0600');
    } finally {
      await h.stop();
      if (lock.ok) lock.lock.release();
    }
  });
});
