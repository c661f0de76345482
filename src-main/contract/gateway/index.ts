export * from './primitives.js';
export * from './market-data.js';
export * from './orders.js';
export * from './books.js';
export * from './operations.js';
