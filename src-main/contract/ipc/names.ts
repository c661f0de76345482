// Compile-time agreement between the plain name lists of shared/ipc-names.ts (what the preload
// allowlists) and the contract's CHANNELS and EVENTS tables: the types below make tsc fail, naming
// the culprit, when a name is in one and not the other.
import type { CHANNEL_NAME_LIST, EVENT_NAME_LIST } from '../../shared/ipc-names.js';
import type { Channel } from './channels.js';
import type { EventName } from './events.js';

type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : Exclude<All, Listed>;
type ListedChannel = (typeof CHANNEL_NAME_LIST)[number];
type ListedEvent = (typeof EVENT_NAME_LIST)[number];

/** Every channel of CHANNELS is listed (the error names the one missing). */
export const EVERY_CHANNEL_LISTED: Missing<Channel, ListedChannel> = true;
/** Every listed channel is in CHANNELS (the error names the stray one). */
export const ONLY_CHANNELS_LISTED: Missing<ListedChannel, Channel> = true;
/** Every event of EVENTS is listed (the error names the one missing). */
export const EVERY_EVENT_LISTED: Missing<EventName, ListedEvent> = true;
/** Every listed event is in EVENTS (the error names the stray one). */
export const ONLY_EVENTS_LISTED: Missing<ListedEvent, EventName> = true;
