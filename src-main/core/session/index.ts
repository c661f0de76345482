// The active profile's session: its lifecycle, gateway clients, feed, the embedded paper gateway, and
// the adoption of an earlier run's interrupted order actions.
export { createGatewayClients } from './gateway-clients.js';
export type { GatewayClients } from './gateway-clients.js';
export { createInterruptedAdoption } from './interrupted-adoption.js';
export type { CoreRun, InterruptedAdoption } from './interrupted-adoption.js';
export { createPaperHost } from './paper-host.js';
export type { PaperHost } from './paper-host.js';
export { createSessionFeed } from './session-feed.js';
export type { SessionFeed } from './session-feed.js';
export { createSessions } from './sessions.js';
export { sessionRouter } from './session-router.js';
export type { Sessions } from './sessions.js';
