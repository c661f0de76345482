// The IPC channel and event NAMES alone, as plain strings: what the preload allowlists and what the
// renderer listens to by name. The preload is a tiny sandboxed CommonJS bundle that must not pull in
// zod and the schemas, so the lists live here; contract/ipc/names.ts makes tsc fail when a list and
// the contract's CHANNELS or EVENTS tables disagree (and a unit test compares them at run time).

/** The IPC message names the Electron transport uses (renderer → main calls, main → renderer events). */
export const IPC_INVOKE = 'bridge:invoke';
export const IPC_EVENT = 'bridge:event';

/** The channels that change orders or positions. */
export const ORDER_CHANNEL_NAMES = [
  'orders.place',
  'orders.modify',
  'orders.cancel',
  'orders.cancelAll',
  'orders.smart',
  'orders.split',
  'orders.basket',
  'orders.closePosition',
  'orders.closeAll',
  'orders.protect',
  'protection.modify',
  'protection.remove',
  'protection.retry',
  'protection.flatten',
  'strategies.send',
  'strategies.resume',
  'strategies.exit',
  'strategies.roll',
] as const;

export const CHANNEL_NAME_LIST = [
  ...ORDER_CHANNEL_NAMES,
  'orders.previewSmart',
  'orders.previewSplit',
  'orders.status',
  'orders.openPosition',
  'protection.brackets',
  'guard.state',
  'guard.unlock',
  'guard.stopFlatten',
  'strategies.update',
  'strategies.remove',
  'strategies.list',
  'orders.margin',
  'gtt.place',
  'gtt.modify',
  'gtt.cancel',
  'gtt.book',
  'books.orders',
  'books.trades',
  'books.positions',
  'books.holdings',
  'books.funds',
  'books.positionsOpen',
  'session.snapshot',
  'market.depth',
  'market.search',
  'market.expiry',
  'market.quotes',
  'market.ticker',
  'market.symbol',
  'market.multiquotes',
  'market.intervals',
  'market.optionChain',
  'market.optionGreeks',
  'market.watch',
  'market.unwatch',
  'apiKey.set',
  'apiKey.clear',
  'apiKey.test',
  'apiKey.status',
  'profiles.list',
  'profiles.add',
  'profiles.update',
  'profiles.remove',
  'profiles.switch',
  'profiles.resetPaper',
  'risk.daily',
  'settings.get',
  'settings.update',
  'journal.query',
  'journal.exportCsv',
  'alerts.mute',
  'alerts.pause',
  'alerts.dismiss',
  'watcher.setVisibility',
] as const;

/** What happens to an order: the watcher's and the reconciler's events. */
export const ORDER_EVENT_NAMES = [
  'orders.accepted',
  'orders.partial',
  'orders.filled',
  'orders.rejected',
  'orders.cancelled',
  'orders.modified',
  'orders.unknown',
  'orders.reconciled',
] as const;

/** The events that show the core is alive and talking (the status bar's "last event"). */
export const ACTIVITY_EVENT_NAMES = [
  ...ORDER_EVENT_NAMES,
  'positions.changed',
  'protection.brackets',
  'guard.state',
  'strategies.list',
  'books.orders',
  'books.trades',
  'books.positions',
  'books.funds',
  'session.connection',
  'alerts.raised',
  'alerts.state',
  'apiKey.status',
  'profiles.switched',
  'tray.state',
] as const;

/** Every event: the activity events and those that carry progress, settings, market data or commands. */
export const EVENT_NAME_LIST = [
  ...ACTIVITY_EVENT_NAMES,
  'orders.closeAllProgress',
  'session.storage',
  'session.gateway',
  'settings.changed',
  'market.ltp',
  'market.quote',
  'market.depth',
  'market.error',
  'shell.command',
] as const;
