// The desk-wide states every pane may read from context (the bridge, the key map, the layout, the
// alert list, the confirm dialog…), over one bridge, so a test renders a pane as App would and adds
// or replaces only the states it is about: render(Pane, { context: deskContext(bridge, [[BOOKS, books]]) }).
import type { BridgeApi } from '@contract';
import { AlertLog } from '../../../src-renderer/src/state/alert-log.svelte';
import { BooksState } from '../../../src-renderer/src/state/books.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import {
  ALERT_LOG,
  BOOKS,
  BRIDGE,
  CONFIRM,
  GTT,
  HOTKEYS,
  LAYOUT,
  ONE_CLICK,
  PROTECTION,
} from '../../../src-renderer/src/state/context';
import { GttState } from '../../../src-renderer/src/state/gtt.svelte';
import { HotkeysState } from '../../../src-renderer/src/state/hotkeys.svelte';
import { LayoutState } from '../../../src-renderer/src/state/layout.svelte';
import { OneClickState } from '../../../src-renderer/src/state/one-click.svelte';
import { ProtectionState } from '../../../src-renderer/src/state/protection.svelte';

export function deskContext(
  bridge: BridgeApi,
  own: Iterable<readonly [symbol, unknown]> = [],
): Map<symbol, unknown> {
  const confirm = new ConfirmState();
  const context = new Map<symbol, unknown>([
    [BRIDGE, bridge],
    [HOTKEYS, new HotkeysState()],
    [LAYOUT, new LayoutState(bridge)],
    [ALERT_LOG, new AlertLog(bridge)],
    [BOOKS, new BooksState(bridge)],
    [CONFIRM, confirm],
    [GTT, new GttState(bridge, confirm)],
    [ONE_CLICK, new OneClickState(bridge)],
    [PROTECTION, new ProtectionState(bridge, { confirm })],
  ]);
  for (const [key, value] of own) context.set(key, value);
  return context;
}
