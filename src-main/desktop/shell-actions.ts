// What the tray menu, the global shortcut, a second launch and a notification click do: bring the
// window forward and tell the page what to show. Order-changing choices only ask the page to confirm;
// the page's confirmed call goes through the router like any other. Close all is the core's
// (`orders.closeAll`): with no page that can ask (its renderer gone), the tray asks with a native
// dialog and runs it itself, so it works with no window, and still never without a yes.
import {
  errorMessage,
  type CloseAllResult,
  type IpcResult,
  type ShellCommandEvent,
} from '../contract/index.js';
import type { Logger } from '../core/index.js';
import type { TrayActions } from './tray-model.js';

export interface ShellActionDeps {
  showWindow(): void;
  command(c: ShellCommandEvent): void;
  invoke(channel: TrayChannel, input: unknown): Promise<IpcResult<unknown>>;
  quit(): void;
  logger: Pick<Logger, 'warn'>;
  /** Whether a loaded page can ask (a hidden window's can); false: its renderer is gone or loading. */
  pageReady?(): boolean;
  /** A native yes/no (the desktop's message box); resolves true for the confirm button. */
  confirm?(q: NativeConfirm): Promise<boolean>;
  /** Tells the trader how a close all the tray ran ended (a notification). */
  report?(title: string, body: string): void;
}

type TrayChannel = 'alerts.pause' | 'profiles.switch' | 'orders.closeAll';

export interface NativeConfirm {
  title: string;
  detail: string;
  confirmLabel: string;
  cancelLabel: string;
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
  const call = (channel: Exclude<TrayChannel, 'orders.closeAll'>, input: unknown) => {
    d.invoke(channel, input).then(
      (r) => {
        if (!r.ok)
          d.logger.warn(`tray: ${channel} refused`, { kind: r.error.kind, message: r.error.message });
      },
      (err: unknown) => d.logger.warn(`tray: ${channel} failed`, { error: errorMessage(err) }),
    );
  };
  /** Asked natively, run by the core; the verdict (or why it did not run) is reported in words. */
  const closeAllNatively = async (confirm: NonNullable<ShellActionDeps['confirm']>) => {
    const report = d.report ?? ((title: string, body: string) => d.logger.warn(`tray: ${title}`, { body }));
    try {
      const yes = await confirm({
        title: 'Close all positions of the strategy?',
        detail:
          "1. Cancel every working order of the strategy, as the gateway's order book shows it now.\n" +
          '2. Close its positions at market.\n' +
          '3. Read the order book and positions back until they show flat.',
        confirmLabel: 'Close all',
        cancelLabel: 'Keep positions',
      });
      if (!yes) return;
      const r = await d.invoke('orders.closeAll', undefined);
      if (!r.ok) return report('Close all not run', r.error.message);
      const v = r.value as CloseAllResult;
      report(v.verdict === 'flat' ? 'Close all: flat' : 'Close all: NOT flat', v.text);
    } catch (err) {
      report('Close all not run', errorMessage(err));
    }
  };
  return {
    showTicket: () => bringForward({ command: 'show-ticket' }),
    showPositions: () => bringForward({ command: 'show-positions' }),
    showOrder: (orderid) => bringForward({ command: 'show-order', orderid }),
    requestCancelAll: () => bringForward({ command: 'confirm-cancel-all' }),
    requestCloseAll: () => {
      if (d.confirm && d.pageReady?.() === false) void closeAllNatively(d.confirm);
      else bringForward({ command: 'confirm-close-all' });
    },
    setAlertsPaused: (paused) => call('alerts.pause', { paused }),
    switchProfile: (id) => call('profiles.switch', { id }),
    quit: () => d.quit(),
  };
}
