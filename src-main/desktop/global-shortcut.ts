// The global shortcut that brings the ticket forward from any application. A shortcut another app
// already holds (register answers false) falls back to the default, and either way the log says which
// one is active: a shortcut that silently does nothing would be worse than none.
import type { GlobalShortcut } from 'electron';
import { DEFAULT_GLOBAL_SHORTCUT, errorMessage } from '../contract/index.js';
import type { Logger } from '../core/index.js';

export interface ShortcutBinding {
  /** Binds `accelerator` ('' for none) in place of the current one; answers the one now active. */
  set(accelerator: string): string | null;
  dispose(): void;
}

export function bindGlobalShortcut(
  gs: Pick<GlobalShortcut, 'register' | 'unregister'>,
  action: () => void,
  logger: Pick<Logger, 'info' | 'warn'>,
): ShortcutBinding {
  let active: string | null = null;

  const tryRegister = (accelerator: string): boolean => {
    try {
      return gs.register(accelerator, action);
    } catch (err) {
      // Electron throws on an accelerator it cannot parse (settings validate, this is a last guard).
      logger.warn('global shortcut not understood', { accelerator, error: errorMessage(err) });
      return false;
    }
  };

  const release = () => {
    if (active === null) return;
    gs.unregister(active);
    active = null;
  };

  return {
    set(accelerator) {
      if (accelerator === active) return active;
      release();
      if (accelerator === '') {
        logger.info('global shortcut off');
        return null;
      }
      if (tryRegister(accelerator)) active = accelerator;
      else if (accelerator !== DEFAULT_GLOBAL_SHORTCUT && tryRegister(DEFAULT_GLOBAL_SHORTCUT)) {
        logger.warn('global shortcut taken by another application; using the default instead', {
          wanted: accelerator,
          active: DEFAULT_GLOBAL_SHORTCUT,
        });
        active = DEFAULT_GLOBAL_SHORTCUT;
      } else
        logger.warn('global shortcut unavailable (taken by another application)', { wanted: accelerator });
      if (active) logger.info('global shortcut active', { accelerator: active });
      return active;
    },
    dispose: release,
  };
}
