export { createSecretStore, SecretStoreError, SECRETS_FILE } from './secret-store.js';
export type { RouterSecretStore, SecretStore, SecretStoreOptions } from './secret-store.js';
export type { KeytarLike, KeytarLoader } from './keytar-backend.js';
export { createMemoryLogger, createRedactingLogger } from './redacting-logger.js';
export { gatewayKeySource } from './gateway-key.js';
export { bindLegacyKeys } from './legacy-keys.js';
