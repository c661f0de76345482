// Where browser mode saves files (the journal's CSV export): a page cannot show a native save
// dialog for the host, so files go under the data dir's exports/ and the answer names the path.
import { existsSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { ensurePrivateDir } from '../core/private-files.js';

export const EXPORTS_DIR = 'exports';

/** A ChooseSavePath port: `<dataDir>/exports/<name>`, never overwriting (`name (2).csv`, …). */
export function exportsSavePath(dataDir: string): (suggestedName: string) => Promise<string> {
  return async (suggestedName) => {
    const dir = join(dataDir, EXPORTS_DIR);
    // Exports hold orders: the folder is private (the CSV itself is written 0600).
    ensurePrivateDir(dir);
    // Only a file name is taken from the caller: no separators, no `..`, no hidden files.
    const name = basename(suggestedName).replace(/^\.+/, '') || 'export';
    const ext = extname(name);
    const stem = name.slice(0, name.length - ext.length);
    for (let n = 1; ; n++) {
      const path = join(dir, n === 1 ? name : `${stem} (${n})${ext}`);
      if (!existsSync(path)) return path;
    }
  };
}
