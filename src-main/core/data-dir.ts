// Where the core keeps its data (settings, journal, watcher state, the paper gateway's files) when
// no directory is given: every front end (desktop, browser mode, the CLI) opens the same one.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const DATA_DIR_ENV = 'ORDERDESK_DATA_DIR';

/** ORDERDESK_DATA_DIR, else the desktop app's (~/.config/OrderDesk). */
export function defaultDataDir(env: Record<string, string | undefined>): string {
  return env[DATA_DIR_ENV] ?? join(homedir(), '.config', 'OrderDesk');
}
