// Per-user data stays per-user: directories the app keeps data in are 0700 and the files in them
// 0600 (settings, journal, watcher state, exports hold orders, positions and key metadata). An
// existing directory or file is tightened too, so a data dir made by an older build is fixed on
// start. chmod is a no-op on Windows, where the user profile's ACL does this job.
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and missing parents) 0700, or tightens it to 0700 if it exists. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Creates `path` empty and 0600 in a private directory, or tightens it to 0600 if it exists. Called
 * before SQLite opens a database: SQLite gives its -wal and -shm files the database file's mode.
 */
export function ensurePrivateFile(path: string): void {
  ensurePrivateDir(dirname(path));
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  chmodSync(path, PRIVATE_FILE_MODE);
}
