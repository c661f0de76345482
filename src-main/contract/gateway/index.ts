export * from './primitives.js';
export * from './market-data.js';
export * from './orders.js';
export * from './books.js';
export * from './account-extra.js';
export * from './options.js';
export * from './websocket.js';
export * from './operations.js';
