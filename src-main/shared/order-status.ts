// Order statuses as the order book states them (gateway-behaviour §7, lower-case): which ones are
// still working and which are final. The watcher, the paper gateway and the ticket read the same sets.

/** Statuses of a working order: it may still fill, be modified or cancelled. */
export const WORKING_STATUSES: ReadonlySet<string> = new Set(['open', 'trigger pending']);
/** Statuses an order never leaves. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['complete', 'cancelled', 'rejected']);

export const isWorking = (status: string): boolean => WORKING_STATUSES.has(status);
export const isFinal = (status: string): boolean => FINAL_STATUSES.has(status);
