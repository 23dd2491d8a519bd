export type { SecretStore } from './secret-store.js';
export { KeytarSecretStore } from './keytar-store.js';
export { MemorySecretStore } from './memory-store.js';
