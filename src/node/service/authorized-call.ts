/**
 * One call to the service: the scope's token on it; a 401 drops the token, refreshes once
 * and retries once; a 404 is a NotFoundError naming the URL (without its query). Used by the
 * app's API clients and by the webhook client (the app and `relay register`).
 */
import type { Scope, ServiceUrls } from '../../shared/domain.js';
import { HttpError, type HttpClient } from '../http/client.js';
import type { TokenManager } from '../oauth/token-manager.js';
import { NotFoundError } from './errors.js';

export type ServiceCall = (
  scope: Scope,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
) => Promise<{ status: number; json: unknown }>;

/** The scope's base URL, without a trailing slash. */
export const baseUrl = (urls: () => ServiceUrls) => (scope: Scope) =>
  urls()[scope].replace(/\/+$/, '');

export function authorizedCall(
  base: (scope: Scope) => string,
  tokens: Pick<TokenManager, 'getAuthorization' | 'invalidate'>,
  http: HttpClient,
): ServiceCall {
  return async (scope, method, path, body) => {
    const url = `${base(scope)}${path}`;
    const send = async () =>
      http.requestJson({
        method,
        url,
        headers: {
          authorization: await tokens.getAuthorization(scope),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    try {
      try {
        return await send();
      } catch (err) {
        if (!(err instanceof HttpError) || err.status !== 401) throw err;
        tokens.invalidate(scope);
        return await send();
      }
    } catch (err) {
      if (err instanceof HttpError && err.status === 404)
        throw new NotFoundError(`Not found: ${err.url}`);
      throw err;
    }
  };
}
