export { KeychainUnavailableError, type SecretName, type SecretStore } from './secret-store.js';
export { KeytarSecretStore, type KeytarSecretStoreOptions } from './keytar-store.js';
export { MemorySecretStore } from './memory-store.js';
