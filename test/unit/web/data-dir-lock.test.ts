// One core per data dir: the lock file, refusal while its owner lives, takeover once it is gone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, LOCK_FILE, pidAlive } from '../../../src-main/web/data-dir-lock.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'lock-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const alive = (pids: number[]) => (pid: number) => pids.includes(pid);

describe('data dir lock', () => {
  it('creates the data dir and a lock file holding the pid, and nothing else', () => {
    const dir = join(tempDir(), 'nested', 'data');
    const r = acquireDataDirLock(dir, { pid: 4242 });
    expect(r.ok).toBe(true);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe('4242\n');
    expect(readdirSync(dir)).toEqual([LOCK_FILE]);
  });

  it('refuses while the owner lives, with a sentence naming the dir and the pid', () => {
    const dir = tempDir();
    expect(acquireDataDirLock(dir, { pid: 100 }).ok).toBe(true);
    const second = acquireDataDirLock(dir, { pid: 200, alive: alive([100, 200]) });
    expect(second).toEqual({
      ok: false,
      error: {
        kind: 'locked',
        pid: 100,
        message: `OrderDesk is already running on ${dir} (pid 100): one OrderDesk per data directory. Stop that one first, or pass another --data directory.`,
      },
    });
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe('100\n');
  });

  it('takes over a lock whose process is gone, and says whose it was', () => {
    const dir = tempDir();
    expect(acquireDataDirLock(dir, { pid: 100 }).ok).toBe(true);
    const r = acquireDataDirLock(dir, { pid: 200, alive: alive([200]) });
    expect(r).toMatchObject({ ok: true, tookOverFrom: 100 });
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe('200\n');
  });

  it('takes over an unreadable lock (cut short by a crash) and one holding its own pid (a container restart)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), 'garbage');
    expect(acquireDataDirLock(dir, { pid: 300, alive: () => true })).toMatchObject({ ok: true });
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe('300\n');
    expect(acquireDataDirLock(dir, { pid: 300, alive: () => true })).toMatchObject({
      ok: true,
      tookOverFrom: 300,
    });
  });

  it('release removes the lock only while it is still ours', () => {
    const dir = tempDir();
    const mine = acquireDataDirLock(dir, { pid: 100 });
    if (!mine.ok) throw new Error('no lock');
    mine.lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);

    const stale = acquireDataDirLock(dir, { pid: 100 });
    if (!stale.ok) throw new Error('no lock');
    expect(acquireDataDirLock(dir, { pid: 200, alive: alive([200]) }).ok).toBe(true);
    stale.lock.release();
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe('200\n');
  });

  it('pidAlive: this process lives, a finished child does not', () => {
    expect(pidAlive(process.pid)).toBe(true);
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    expect(pidAlive(Number(child.stdout))).toBe(false);
  });

  it('a real second process on the same dir is refused while this one holds it', () => {
    const dir = tempDir();
    expect(acquireDataDirLock(dir).ok).toBe(true);
    const r = acquireDataDirLock(dir, { pid: process.pid + 1 });
    expect(r).toMatchObject({ ok: false, error: { kind: 'locked', pid: process.pid } });
  });
});
