// What the desktop shell asks of the page: the tray menu and OS notifications never act on orders
// themselves, they bring the window forward and let the page show (and confirm) the thing asked for.
import { z } from 'zod';

export const ShellCommandEvent = z.discriminatedUnion('command', [
  /** Focus the order ticket (tray "Show ticket", the global shortcut, a second launch). */
  z.object({ command: z.literal('show-ticket') }),
  /** Show the positions pane (tray "Positions"). */
  z.object({ command: z.literal('show-positions') }),
  /** Show one order (a click on its notification). */
  z.object({ command: z.literal('show-order'), orderid: z.string().min(1).max(64) }),
  /** Ask the user to confirm cancelling every open order; nothing is cancelled until they do. */
  z.object({ command: z.literal('confirm-cancel-all') }),
  /** Ask the user to confirm closing every position; nothing is closed until they do. */
  z.object({ command: z.literal('confirm-close-all') }),
]);
export type ShellCommandEvent = z.infer<typeof ShellCommandEvent>;
export type ShellCommand = ShellCommandEvent['command'];
