// Alerts outside the page: the browser's Notification API, only once the user allowed it (browser
// mode; Electron's renderer is denied every permission and main shows OS notifications instead).
import type { AlertEvent } from '@contract';

export type SystemNotifyPermission = NotificationPermission | 'unsupported';

export function systemNotifyPermission(): SystemNotifyPermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** Asks once, from a click (browsers ignore requests without a user gesture). */
export async function requestSystemNotify(): Promise<SystemNotifyPermission> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.requestPermission();
}

export function notifySystem(alert: AlertEvent): void {
  if (systemNotifyPermission() !== 'granted') return;
  // `tag` lets a fill replace its partial-fill notification.
  new Notification(alert.title, { body: alert.body, tag: alert.orderid ?? alert.id });
}
