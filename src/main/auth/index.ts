export {
  TokenManager,
  type Credentials,
  type TokenManagerOptions,
} from '../../node/oauth/token-manager.js';
export { AuthError, type AuthErrorCode } from '../../node/oauth/errors.js';
