// The POST routes of the paper gateway's market-data and reference endpoints, for the
// server-*.test.ts files.

export const POST_ROUTES = [
  '/api/v1/ping',
  '/api/v1/depth',
  '/api/v1/quotes',
  '/api/v1/multiquotes',
  '/api/v1/symbol',
  '/api/v1/search',
  '/api/v1/expiry',
  '/api/v1/history',
  '/api/v1/intervals',
  '/api/v1/analyzer',
];
