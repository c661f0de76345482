// One core per data dir: a lock file holding the owner's pid, created exclusively. A lock left by a
// process that no longer exists (a crash, a SIGKILL) is taken over.
import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorCode, errorMessage } from '../contract/index.js';
import { ensurePrivateDir } from '../core/private-files.js';

export const LOCK_FILE = 'orderdesk.lock';

export interface DataDirLock {
  path: string;
  /** Removes the lock file if it is still ours. */
  release(): void;
}

export type LockResult =
  | { ok: true; lock: DataDirLock; tookOverFrom?: number }
  | { ok: false; error: { kind: 'locked'; pid: number; message: string } | { kind: 'io'; message: string } };

/** True while a process with this pid exists (EPERM: it exists but belongs to someone else). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errorCode(err) === 'EPERM';
  }
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function acquireDataDirLock(
  dataDir: string,
  options: { pid?: number; alive?: (pid: number) => boolean } = {},
): LockResult {
  const pid = options.pid ?? process.pid;
  const alive = options.alive ?? pidAlive;
  const path = join(dataDir, LOCK_FILE);
  try {
    // Browser mode and the desktop app both take the lock first: the data dir is made (or
    // tightened to) 0700 here.
    ensurePrivateDir(dataDir);
  } catch (err) {
    return { ok: false, error: { kind: 'io', message: `cannot create ${dataDir}: ${errorMessage(err)}` } };
  }
  const lock: DataDirLock = {
    path,
    release() {
      if (readPid(path) !== pid) return;
      try {
        unlinkSync(path);
      } catch {
        // Already gone: nothing to release.
      }
    },
  };
  const lockedBy = (owner: number): LockResult => ({
    ok: false,
    error: {
      kind: 'locked',
      pid: owner,
      message: `OrderDesk is already running on ${dataDir} (pid ${owner}): one OrderDesk per data directory. Stop that one first, or pass another --data directory.`,
    },
  });
  let tookOverFrom: number | undefined;
  // Twice at most: once, and once more after removing a stale lock. Losing that second race to
  // another starter means it holds the lock now.
  for (let attempt = 0; attempt < 2; attempt++) {
    // Written whole under a private name, then linked into place: link fails if the lock exists,
    // and no other starter can ever read a half-written lock.
    const draft = `${path}.${pid}.tmp`;
    try {
      writeFileSync(draft, `${pid}\n`, { mode: 0o600 });
      linkSync(draft, path);
      return tookOverFrom === undefined ? { ok: true, lock } : { ok: true, lock, tookOverFrom };
    } catch (err) {
      if (errorCode(err) !== 'EEXIST')
        return { ok: false, error: { kind: 'io', message: `cannot create ${path}: ${errorMessage(err)}` } };
    } finally {
      rmSync(draft, { force: true });
    }
    const owner = readPid(path);
    if (owner !== undefined && owner !== pid && alive(owner)) return lockedBy(owner);
    // Stale (a dead pid, our own pid from an earlier run in a container, or unreadable): take it over.
    if (owner !== undefined) tookOverFrom = owner;
    try {
      unlinkSync(path);
    } catch (err) {
      if (errorCode(err) !== 'ENOENT')
        return {
          ok: false,
          error: { kind: 'io', message: `cannot remove stale ${path}: ${errorMessage(err)}` },
        };
    }
  }
  return lockedBy(readPid(path) ?? 0);
}
