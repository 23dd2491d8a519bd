/** API failures the sync engine and the user can act on. */
import type { Webhook } from '../../shared/wire.js';

export class NotFoundError extends Error {
  override name = 'NotFoundError';
  readonly status = 404;
}

/**
 * A record read answered 404 and so did a read the API always has: the base URL is wrong
 * (or the service moved), not the record gone. An outage to fix in Settings, never a deletion.
 */
export class ServiceUrlError extends Error {
  override name = 'ServiceUrlError';
  readonly code = 'service_url';
  constructor(readonly api: 'calendar' | 'news') {
    super(
      `The ${api} service answers "not found" (HTTP 404) for reads it always has: check its URL in Settings.`,
    );
  }
}

export class ResponseShapeError extends Error {
  override name = 'ResponseShapeError';
  readonly code = 'bad_response';
  constructor(
    readonly endpoint: string,
    readonly issues: string,
  ) {
    super(`The service sent an unexpected response from ${endpoint}: ${issues}`);
  }
}

export class WebhookLimitError extends Error {
  override name = 'WebhookLimitError';
  readonly code = 'webhook_limit';
  readonly status = 444;
  constructor(
    readonly api: 'calendar' | 'news',
    readonly registered: Webhook[],
  ) {
    super(
      `The service allows two webhook URLs for the ${api} API and both are taken: ${registered.map((w) => w.url).join(', ') || '(could not list them)'}. Remove one (${registered.map((w) => `id ${w.id}`).join(', ') || 'see the service dashboard'}) and try again.`,
    );
  }
}

/** A call made with arguments the service cannot take: caught before any request. */
export class ApiInputError extends Error {
  override name = 'ApiInputError';
  readonly code = 'invalid_input';
  constructor(
    readonly endpoint: string,
    readonly issues: string,
  ) {
    super(`Invalid arguments for ${endpoint}: ${issues}`);
  }
}

/** A read of a collection the API always has: its 404 means a wrong base URL (ServiceUrlError). */
export async function collectionRead<T>(
  api: 'calendar' | 'news',
  read: () => Promise<T>,
): Promise<T> {
  try {
    return await read();
  } catch (err) {
    throw err instanceof NotFoundError ? new ServiceUrlError(api) : err;
  }
}
