// The core's own schemas (settings, profiles, journal, secrets).
export * from './error-message.js';
export * from './journal.js';
export * from './secrets.js';
export * from './settings.js';
export * from './watchlist-settings.js';
export * from './shell-settings.js';
export * from './ticket-defaults.js';
export * from './layout-settings.js';
export * from './profiles.js';
export * from './key-origin.js';
export * from './daily-limits.js';
export * from './protection.js';
export * from './guard.js';
export * from './strategies.js';
