// The core's alerts as OS notifications. The mapping is pure (urgency, stickiness); the notifier keeps
// the latest notification of each order so a fill replaces that order's partial-fill toast, and a
// click opens the window at the order. Electron's Notification class is injected.
import type { NotificationConstructorOptions } from 'electron';
import { errorMessage } from '../contract/index.js';
import type { Logger, Notifier } from '../core/index.js';

export type NotifyInput = Parameters<Notifier['notify']>[0];

/** Kinds that only report progress: a later notification of the same order replaces them. */
const SUPERSEDED = new Set<NotifyInput['kind']>(['partial']);

/** At most this many notifications are tracked (the OS may never report a close). */
export const MAX_TRACKED = 200;

export function notificationOptions(n: NotifyInput, icon?: string): NotificationConstructorOptions {
  // Rejections need action: critical, and up until dismissed (Linux, Windows honour both).
  const sticky = n.sticky === true || n.kind === 'rejection';
  const urgency = n.kind === 'rejection' ? 'critical' : n.kind === 'info' ? 'low' : 'normal';
  return {
    title: n.title,
    body: n.body,
    urgency,
    timeoutType: sticky ? 'never' : 'default',
    silent: n.kind === 'info',
    ...(icon ? { icon } : {}),
  };
}

/** What the notifier needs of a shown notification. */
export interface ShownNotification {
  show(): void;
  close(): void;
  on(event: 'click' | 'close', listener: () => void): unknown;
}

export interface DesktopNotifierOptions {
  create(options: NotificationConstructorOptions): ShownNotification;
  /** False where the OS has no notification service: alerts are then only in the window. */
  isSupported(): boolean;
  onClick(orderid: string | undefined): void;
  logger: Pick<Logger, 'warn'>;
  icon?: string;
}

export function createDesktopNotifier(o: DesktopNotifierOptions): Notifier {
  // Latest notification per order (or per alert id when there is no order), oldest first.
  const shown = new Map<string, { kind: NotifyInput['kind']; n: ShownNotification }>();
  let saidUnsupported = false;
  let serial = 0;

  function forget(key: string, n: ShownNotification): void {
    if (shown.get(key)?.n === n) shown.delete(key);
  }

  return {
    notify(input) {
      if (!o.isSupported()) {
        if (!saidUnsupported) o.logger.warn('no OS notification service: alerts show in the window only');
        saidUnsupported = true;
        return;
      }
      const key = input.orderid !== undefined ? `order:${input.orderid}` : `alert:${input.id ?? ++serial}`;
      const previous = shown.get(key);
      try {
        const n = o.create(notificationOptions(input, o.icon));
        n.on('click', () => o.onClick(input.orderid));
        n.on('close', () => forget(key, n));
        if (previous && SUPERSEDED.has(previous.kind)) previous.n.close();
        shown.delete(key);
        shown.set(key, { kind: input.kind, n });
        // Bounded: the oldest entries are only forgotten, never closed (they may be sticky rejections).
        for (const k of shown.keys()) {
          if (shown.size <= MAX_TRACKED) break;
          shown.delete(k);
        }
        n.show();
      } catch (err) {
        o.logger.warn('OS notification failed', { kind: input.kind, error: errorMessage(err) });
      }
    },
  };
}
