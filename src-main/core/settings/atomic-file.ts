// Crash-safe file replacement: write a temp file beside the target, fsync it, rename it over the
// target, fsync the directory. A crash at any point leaves either the old file or the new one.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** File mode of the new file; 0600 by default (settings and ciphertext are per-user). */
  mode?: number;
  /** Test seam: runs after the temp file is durable and before the rename. */
  beforeRename?: () => void | Promise<void>;
}

const TEMP_SUFFIX = '.tmp';

function tempPrefix(path: string): string {
  return `.${basename(path)}.`;
}

export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `${tempPrefix(path)}${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  const handle = await open(temp, 'wx', options.mode ?? 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await options.beforeRename?.();
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await syncDir(dir);
}

/** Makes the rename itself durable (POSIX); directories cannot be opened for sync on Windows. */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort: not supported on this platform.
  }
}

/** Removes temp files a crash left behind next to `path`. */
export async function removeStaleTemps(path: string): Promise<void> {
  const dir = dirname(path);
  const prefix = tempPrefix(path);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(
    names
      .filter((n) => n.startsWith(prefix) && n.endsWith(TEMP_SUFFIX))
      .map((n) => rm(join(dir, n), { force: true })),
  );
}
