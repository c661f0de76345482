// The channel and event NAMES alone, as plain strings: what the preload allowlists. The preload is a
// tiny sandboxed CommonJS bundle that must not pull in zod and the schemas, so it imports this file
// only. The types below make tsc fail when a name is added to or removed from CHANNELS or EVENTS and
// not here (and a unit test compares the lists at run time).
import type { Channel } from './channels.js';
import type { EventName } from './events.js';

/** The IPC message names the Electron transport uses (renderer → main calls, main → renderer events). */
export const IPC_INVOKE = 'bridge:invoke';
export const IPC_EVENT = 'bridge:event';

export const CHANNEL_NAME_LIST = [
  'orders.place',
  'orders.modify',
  'orders.cancel',
  'orders.cancelAll',
  'orders.smart',
  'orders.split',
  'orders.basket',
  'orders.closePosition',
  'orders.closeAll',
  'orders.previewSmart',
  'orders.previewSplit',
  'orders.status',
  'orders.openPosition',
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
] as const satisfies readonly Channel[];

export const EVENT_NAME_LIST = [
  'orders.accepted',
  'orders.partial',
  'orders.filled',
  'orders.rejected',
  'orders.cancelled',
  'orders.modified',
  'orders.unknown',
  'orders.reconciled',
  'orders.closeAllProgress',
  'positions.changed',
  'books.orders',
  'books.trades',
  'books.positions',
  'books.funds',
  'session.connection',
  'alerts.raised',
  'alerts.state',
  'apiKey.status',
  'profiles.switched',
  'session.storage',
  'session.gateway',
  'settings.changed',
  'market.ltp',
  'market.quote',
  'market.depth',
  'market.error',
  'tray.state',
  'shell.command',
] as const satisfies readonly EventName[];

type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : Exclude<All, Listed>;
/** Compile-time: every channel of CHANNELS is listed (the error names the one missing). */
export const EVERY_CHANNEL_LISTED: Missing<Channel, (typeof CHANNEL_NAME_LIST)[number]> = true;
/** Compile-time: every event of EVENTS is listed (the error names the one missing). */
export const EVERY_EVENT_LISTED: Missing<EventName, (typeof EVENT_NAME_LIST)[number]> = true;
