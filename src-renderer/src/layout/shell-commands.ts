// The desk's commands from the window's keys (the hotkey map) and from the shell (tray, notification
// actions): which pane comes forward, where focus goes, cancel all and close all. The layout hands
// in what they act on; confirmations are asked in the window, by the flows themselves.
import type { ShellCommandEvent } from '@contract';
import type { HotkeyAction } from '../lib/hotkeys';
import { dispatchRowAction } from '../lib/row-action';
import { focusTicketField } from '../lib/ticket-focus';
import type { BooksState } from '../state/books.svelte';
import type { CloseAllFlow } from '../state/close-all.svelte';
import type { ConfirmState } from '../state/confirm.svelte';
import { ROW_ATTRIBUTE } from '../state/hotkeys.svelte';
import type { OrderActions } from '../state/order-actions.svelte';

/** The books tabs a command can bring forward. */
export type CommandTab = 'orders' | 'trades' | 'positions';

export interface DeskCommandTargets {
  books: BooksState;
  confirm: ConfirmState;
  actions: OrderActions;
  closeAll: CloseAllFlow;
  /** The narrow ticket-only desk: no books tabs, no focus area. */
  narrow: () => boolean;
  /** Brings a books tab forward, focusing its rows unless told not to. */
  show: (tab: CommandTab, focusRows?: boolean) => Promise<void>;
  /** Focuses the compact positions (narrow desk). */
  focusCompactPositions: () => void;
  /** Opens an order's detail in the Orders tab. */
  showOrder: (orderid: string) => void;
  focusWatchlist: () => void;
  /** Brings Depth forward in the focus area and focuses it. */
  focusDepth: () => void;
  focusTicket: () => void;
}

export interface DeskCommands {
  onHotkey: (action: HotkeyAction, e: KeyboardEvent) => void;
  onShell: (cmd: ShellCommandEvent) => void;
}

/** Focuses a region's first control (or the region itself). */
export function focusRegion(el: HTMLElement | null | undefined): void {
  const first = el?.querySelector<HTMLElement>('input, button, [tabindex="0"]');
  (first ?? el)?.focus();
}

export function deskCommands(t: DeskCommandTargets): DeskCommands {
  function cancelAllOrders(): void {
    if (!t.narrow()) void t.show('orders', false);
    void t.actions.cancelAll(t.books.orders?.orders ?? []);
  }

  function closeAllPositions(): void {
    if (!t.narrow()) void t.show('positions', false);
    void t.closeAll.request(t.books.positions?.positions ?? [], t.books.orders?.orders ?? []);
  }

  function showPositions(): void {
    if (t.narrow()) t.focusCompactPositions();
    else void t.show('positions');
  }

  function onHotkey(action: HotkeyAction, e: KeyboardEvent): void {
    // A question on screen is answered first; its keys never reach the desk.
    if (t.confirm.request) return;
    switch (action) {
      case 'pane.orders':
        if (!t.narrow()) void t.show('orders');
        break;
      case 'pane.trades':
        if (!t.narrow()) void t.show('trades');
        break;
      case 'pane.positions':
        showPositions();
        break;
      case 'pane.watchlist':
        t.focusWatchlist();
        break;
      case 'pane.depth':
        if (!t.narrow()) t.focusDepth();
        break;
      case 'orders.cancelAll':
        cancelAllOrders();
        break;
      case 'positions.closeAll':
        closeAllPositions();
        break;
      case 'row.modify':
      case 'row.cancel':
      case 'row.buy':
      case 'row.sell':
      case 'row.editStop':
      case 'row.editTarget':
      case 'row.unprotect':
      case 'row.flatten':
      case 'row.retryLeg':
        dispatchRowAction(e.target, action, `[${ROW_ATTRIBUTE}]`);
        break;
      default:
        // The ticket's own keys (F1/F2, /, Enter, Esc) belong to the ticket pane.
        break;
    }
  }

  function onShell(cmd: ShellCommandEvent): void {
    switch (cmd.command) {
      case 'show-ticket':
        // The tray's "show ticket" means "I want to trade something": the caret goes to the search.
        if (!focusTicketField('search')) t.focusTicket();
        break;
      case 'show-positions':
        showPositions();
        break;
      case 'show-order':
        if (!t.narrow()) t.showOrder(cmd.orderid);
        break;
      case 'confirm-cancel-all':
        cancelAllOrders();
        break;
      case 'confirm-close-all':
        closeAllPositions();
        break;
    }
  }

  return { onHotkey, onShell };
}
