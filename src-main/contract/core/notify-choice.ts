// What an alert does, one word per choice: shared by the order-event rules (settings.ts) and the
// account guard's warnings (guard.ts).
import { z } from 'zod';

/**
 * What an order event does: `os` a system notification (and the desk's toast), `sound` the desk's
 * toast with a chime (no system notification), `in_app` the toast alone, `off` nothing.
 */
export const NOTIFY_CHOICES = ['os', 'sound', 'in_app', 'off'] as const;
export const NotifyChoice = z.enum(NOTIFY_CHOICES, {
  error: 'a notification rule is one of: OS notification, sound, in-app only, off',
});
export type NotifyChoice = z.infer<typeof NotifyChoice>;
