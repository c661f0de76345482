// Opens the link in the default browser when the machine has one to show: xdg-open on PATH and a
// display. Never fails: on a server the printed link is the way in.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

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

/** True when a browser was asked to open the link (it may still fail on its own). */
export function openInBrowser(url: string, env: Record<string, string | undefined> = process.env): boolean {
  if (!env['DISPLAY'] && !env['WAYLAND_DISPLAY']) return false;
  const opener = findOnPath('xdg-open', env['PATH']);
  if (!opener) return false;
  try {
    const child = spawn(opener, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
