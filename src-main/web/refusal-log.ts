// Refused bridge connections, logged at a bounded rate so a hostile local process can neither flood
// the log nor go unnoticed: the first refusal of a reason gets a line at once; the ones after it in
// the same 10 s window get none of their own, and their count is one line when the window ends (a
// window with refusals opens the next one, so a steady flood is one line per reason per 10 s).
import type { Logger } from '../core/index.js';
import type { RefusalReason } from './request-guard.js';

export const REFUSAL_LOG_WINDOW_MS = 10_000;

/** Why an upgrade was refused: the request guard's reasons, or a target the bridge is not at. */
export type UpgradeRefusal = RefusalReason | 'starting' | 'bad_target' | 'wrong_path';

export interface RefusalLog {
  refused(reason: UpgradeRefusal): void;
  /** Logs the counts still open and stops the window timers. */
  close(): void;
}

interface Window {
  timer: ReturnType<typeof setTimeout>;
  /** Refusals in this window that got no line of their own. */
  unlogged: number;
}

export function createRefusalLog(options: { logger: Logger; windowMs?: number }): RefusalLog {
  const { logger } = options;
  const windowMs = options.windowMs ?? REFUSAL_LOG_WINDOW_MS;
  const windows = new Map<UpgradeRefusal, Window>();

  function report(reason: UpgradeRefusal, count: number): void {
    logger.warn('bridge connections refused', { reason, count, seconds: windowMs / 1000 });
  }

  function open(reason: UpgradeRefusal): void {
    const timer = setTimeout(() => {
      const w = windows.get(reason);
      windows.delete(reason);
      if (w && w.unlogged > 0) {
        report(reason, w.unlogged);
        open(reason);
      }
    }, windowMs);
    // A pending count never keeps the process alive; close() reports it on the way out.
    timer.unref?.();
    windows.set(reason, { timer, unlogged: 0 });
  }

  return {
    refused(reason) {
      const w = windows.get(reason);
      if (w) {
        w.unlogged++;
        return;
      }
      logger.warn('bridge connection refused', { reason });
      open(reason);
    },
    close() {
      for (const [reason, w] of windows) {
        clearTimeout(w.timer);
        if (w.unlogged > 0) report(reason, w.unlogged);
      }
      windows.clear();
    },
  };
}
