// Applies the shell settings (settings.shell) as they change: always-on-top, the global shortcut and
// launch at login. Only what changed is applied, so saving the window bounds re-registers nothing.
import { errorMessage, type ShellSettings } from '../contract/index.js';
import type { Logger } from '../core/index.js';

export interface ShellSettingsTargets {
  setAlwaysOnTop(on: boolean): void;
  setShortcut(accelerator: string): void;
  setLaunchAtLogin(enabled: boolean): Promise<void>;
  logger: Pick<Logger, 'warn'>;
}

export function shellSettingsApplier(t: ShellSettingsTargets): (s: ShellSettings) => void {
  let applied: ShellSettings | undefined;
  return (s) => {
    const before = applied;
    applied = s;
    const step = (what: string, fn: () => void) => {
      try {
        fn();
      } catch (err) {
        t.logger.warn(`${what} not applied`, { error: errorMessage(err) });
      }
    };
    if (before?.alwaysOnTop !== s.alwaysOnTop) step('always on top', () => t.setAlwaysOnTop(s.alwaysOnTop));
    if (before?.globalShortcut !== s.globalShortcut)
      step('global shortcut', () => t.setShortcut(s.globalShortcut));
    if (before?.launchAtLogin !== s.launchAtLogin)
      t.setLaunchAtLogin(s.launchAtLogin).catch((err: unknown) =>
        t.logger.warn('launch at login not applied', { error: errorMessage(err) }),
      );
  };
}
