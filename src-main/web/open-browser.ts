// Opens the desk in the default browser when the machine has one to show: xdg-open on PATH and a
// display. The one-time link never goes on a command line (every local user can read `ps`): the
// opener is given a launch file instead, a 0600 page in the private data dir that sends the browser on
// to the link, as Jupyter does. Never fails: on a server the printed link is the way in.
import { spawn } from 'node:child_process';
import { accessSync, closeSync, constants, fchmodSync, openSync, rmSync, writeSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessage } from '../contract/index.js';
import { PRIVATE_FILE_MODE } from '../core/private-files.js';

/** The launch page's name in the data dir (one OrderDesk per data dir, so one launch file). */
export const LAUNCH_FILE = 'web-launch.html';

/** The first executable `name` on PATH, or undefined. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A page that goes straight on to `url` (a link to click where a browser holds the refresh back). */
export function launchPage(url: string): string {
  const href = escapeHtml(url);
  return (
    `<!doctype html>\n<html><head><meta charset="utf-8">\n` +
    `<meta http-equiv="refresh" content="0;url=${href}">\n<title>OrderDesk</title></head>\n` +
    `<body><p>Opening OrderDesk… If nothing happens, <a href="${href}">open the desk</a>.</p></body></html>\n`
  );
}

/**
 * Writes the launch file 0600 in `dataDir`. A stale one (a run that did not stop cleanly) is removed
 * first, and the new one is created exclusively: whatever sits at the name, a link included, is
 * replaced and never written through.
 */
export function writeLaunchFile(dataDir: string, url: string): string {
  const path = join(dataDir, LAUNCH_FILE);
  rmSync(path, { force: true });
  const fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  try {
    // The mode given to open is narrowed by the umask, never widened; set it exactly.
    fchmodSync(fd, PRIVATE_FILE_MODE);
    writeSync(fd, launchPage(url));
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Removes the launch file (on exit: the link in it is spent or no longer served). */
export function removeLaunchFile(path: string): void {
  rmSync(path, { force: true });
}

export type OpenResult =
  | { opened: true; launchFile: string }
  | { opened: false; reason: 'no_browser' }
  | { opened: false; reason: 'io'; message: string };

/**
 * Asks the default browser to open `url` through a launch file in `dataDir`; the opener's arguments
 * hold only the file's `file://` URL. `opened` says a browser was asked (it may still fail on its own).
 */
export function openInBrowser(
  url: string,
  dataDir: string,
  env: Record<string, string | undefined> = process.env,
): OpenResult {
  if (!env['DISPLAY'] && !env['WAYLAND_DISPLAY']) return { opened: false, reason: 'no_browser' };
  const opener = findOnPath('xdg-open', env['PATH']);
  if (!opener) return { opened: false, reason: 'no_browser' };
  let launchFile: string;
  try {
    launchFile = writeLaunchFile(dataDir, url);
  } catch (err) {
    return { opened: false, reason: 'io', message: `cannot write the launch file: ${errorMessage(err)}` };
  }
  try {
    const child = spawn(opener, [pathToFileURL(launchFile).href], {
      detached: true,
      stdio: 'ignore',
      env: { ...env },
    });
    child.on('error', () => undefined);
    child.unref();
    return { opened: true, launchFile };
  } catch (err) {
    removeLaunchFile(launchFile);
    return { opened: false, reason: 'io', message: `cannot run ${opener}: ${errorMessage(err)}` };
  }
}
