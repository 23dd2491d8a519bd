export { TokenManager, type Credentials, type TokenManagerOptions } from './token-manager.js';
export { AuthError, type AuthErrorCode } from './errors.js';
