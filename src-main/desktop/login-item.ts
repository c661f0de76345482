// Launch at login (a setting). macOS and Windows: Electron's login item, started hidden in the tray.
// Linux, where Electron has no login item: an XDG autostart entry (~/.config/autostart). Only an
// installed app registers itself: a dev run would register the bare Electron binary.
import { join } from 'node:path';
import { errorCode, errorMessage } from '../contract/index.js';
import type { Logger } from '../core/index.js';

/** Passed by the login item: start in the tray without showing the window. */
export const HIDDEN_ARG = '--hidden';
export const AUTOSTART_FILE = 'orderdesk.desktop';

/** A desktop-entry Exec argument: quoted, with the four characters the spec reserves escaped. */
function execArg(arg: string): string {
  return `"${arg.replace(/[\\"`$]/g, (c) => `\\${c}`)}"`;
}

/** The XDG autostart entry that starts `execPath` hidden. */
export function autostartEntry(execPath: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=OrderDesk',
    'Comment=Order ticket for Indian markets',
    `Exec=${execArg(execPath)} ${HIDDEN_ARG}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export interface LoginItemDeps {
  platform: NodeJS.Platform;
  isPackaged: boolean;
  /** The executable to start (an AppImage's own path when run from one). */
  execPath: string;
  /** $XDG_CONFIG_HOME/autostart, or ~/.config/autostart. */
  autostartDir: string;
  setLoginItemSettings(s: { openAtLogin: boolean; args: string[] }): void;
  writeFile(path: string, text: string): Promise<void>;
  removeFile(path: string): Promise<void>;
  logger: Pick<Logger, 'warn'>;
}

export async function applyLaunchAtLogin(enabled: boolean, d: LoginItemDeps): Promise<void> {
  if (!d.isPackaged) {
    if (enabled) d.logger.warn('launch at login applies to the installed app only (this is a dev run)');
    return;
  }
  try {
    if (d.platform !== 'linux') {
      d.setLoginItemSettings({ openAtLogin: enabled, args: enabled ? [HIDDEN_ARG] : [] });
      return;
    }
    const file = join(d.autostartDir, AUTOSTART_FILE);
    if (enabled) await d.writeFile(file, autostartEntry(d.execPath));
    else
      await d.removeFile(file).catch((err: unknown) => {
        if (errorCode(err) !== 'ENOENT') throw err;
      });
  } catch (err) {
    d.logger.warn('launch at login could not be changed', { enabled, error: errorMessage(err) });
  }
}
