// IPC: the channel table (renderer → main) and the event table (main → renderer).
export * from './result.js';
export * from './views.js';
export * from './events.js';
export * from './session.js';
export * from './shell.js';
export * from './names.js';
export * from './channels.js';
export * from './storage.js';
export * from './close-all.js';
export * from './market.js';
export * from './option-greeks.js';
export * from './margin.js';
export * from './gtt.js';
export * from './bridge.js';
export * from './bridge-frames.js';
export * from './protection.js';
export * from './guard.js';
