// The core's public surface: createCore and the types a shell needs to bind it.
export { createCore, KEYCHAIN_SERVICE } from './create-core.js';
export { DATA_DIR_ENV, defaultDataDir } from './data-dir.js';
export { createPageWatches, type PageWatches } from './market/index.js';
export { PaperUnavailableError } from './storage-status.js';
export type { Core, CorePorts, EmbeddedGateway, StartPaperGateway } from './create-core.js';
export type { Router } from './router/index.js';
export type { AnyListener, EventBus, Listener } from './router/index.js';
export type { ChooseSavePath, Logger, Notifier, Paths, SafeStoragePort, TraySink } from './ports.js';
export type { Clock } from '../gateway/index.js';
