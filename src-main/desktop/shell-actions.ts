// What the tray menu, the global shortcut, a second launch and a notification click do: bring the
// window forward and tell the page what to show. Order-changing choices only ask the page to confirm;
// the page's confirmed call goes through the router like any other.
import { errorMessage, type IpcResult, type ShellCommandEvent } from '../contract/index.js';
import type { Logger } from '../core/index.js';
import type { TrayActions } from './tray-model.js';

export interface ShellActionDeps {
  showWindow(): void;
  command(c: ShellCommandEvent): void;
  invoke(channel: 'alerts.pause' | 'profiles.switch', input: unknown): Promise<IpcResult<unknown>>;
  quit(): void;
  logger: Pick<Logger, 'warn'>;
}

export interface ShellActions extends TrayActions {
  /** A notification was clicked: open the window at its order. */
  showOrder(orderid: string): void;
}

export function shellActions(d: ShellActionDeps): ShellActions {
  const bringForward = (c: ShellCommandEvent) => {
    d.showWindow();
    d.command(c);
  };
  // The tray has no place to show an answer: a refusal is logged and the window shows the state.
  const call = (channel: 'alerts.pause' | 'profiles.switch', input: unknown) => {
    d.invoke(channel, input).then(
      (r) => {
        if (!r.ok)
          d.logger.warn(`tray: ${channel} refused`, { kind: r.error.kind, message: r.error.message });
      },
      (err: unknown) => d.logger.warn(`tray: ${channel} failed`, { error: errorMessage(err) }),
    );
  };
  return {
    showTicket: () => bringForward({ command: 'show-ticket' }),
    showPositions: () => bringForward({ command: 'show-positions' }),
    showOrder: (orderid) => bringForward({ command: 'show-order', orderid }),
    requestCancelAll: () => bringForward({ command: 'confirm-cancel-all' }),
    requestCloseAll: () => bringForward({ command: 'confirm-close-all' }),
    setAlertsPaused: (paused) => call('alerts.pause', { paused }),
    switchProfile: (id) => call('profiles.switch', { id }),
    quit: () => d.quit(),
  };
}
