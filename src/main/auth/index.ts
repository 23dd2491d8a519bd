export { TokenManager, type Credentials } from '../../node/oauth/token-manager.js';
export { AuthError } from '../../node/oauth/errors.js';
