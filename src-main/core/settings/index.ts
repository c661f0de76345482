export { createSettingsStore, SettingsError } from './settings-store.js';
export type { SettingsStore, SettingsStoreOptions } from './settings-store.js';
export { writeFileAtomic, removeStaleTemps } from './atomic-file.js';
export { seedFirstWatchlist } from './first-watchlist.js';
