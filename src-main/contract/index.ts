// The one contract module: every gateway request and response (and, later, every IPC channel and event).
export * from './gateway/index.js';
export * from './core/index.js';
export * from './ipc/index.js';
export * from './clock.js';
