// Where the Electron binary is, or why there is none, worked out the way `require('electron')` does
// (node_modules/electron/path.txt under dist/, or ELECTRON_OVERRIDE_DIST_PATH) but without its side
// effect: a missing binary makes `require('electron')` try to download one.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ELECTRON_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'electron');

/** @returns {{ ok: true, path: string } | { ok: false, reason: string }} */
export function electronBinary(env = process.env) {
  const pathFile = join(ELECTRON_DIR, 'path.txt');
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!name && !override)
    return {
      ok: false,
      reason: 'node_modules/electron/path.txt is missing (installed with ELECTRON_SKIP_BINARY_DOWNLOAD)',
    };
  const path = override ? join(override, name || 'electron') : join(ELECTRON_DIR, 'dist', name);
  if (!existsSync(path)) return { ok: false, reason: `${path} does not exist` };
  return { ok: true, path };
}
