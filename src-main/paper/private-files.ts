// The paper gateway's data stays per-user: its directory 0700, its files 0600 (the ledger holds
// orders and funds, the key store the API keys' hashes). The same rule as the core's
// (src-main/core/private-files.ts), repeated because the paper gateway imports nothing from the core.
// An existing directory or file is tightened too. chmod is a no-op on Windows.
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** Creates `dir` (and missing parents) 0700, or tightens it to 0700 if it exists. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Creates `path` empty and 0600, or tightens it; before SQLite opens it (-wal/-shm copy its mode). */
export function ensurePrivateFile(path: string): void {
  ensurePrivateDir(dirname(path));
  closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600);
}
