/** Turn any error into what may cross to the renderer: a code and a plain message, no stack, no secrets. */
import type { ApiErrorBody } from '../shared/ipc.js';
import { InvalidRequestError } from '../shared/ipc.js';

export function toApiError(err: unknown): ApiErrorBody {
  if (err instanceof InvalidRequestError) return { error: 'invalid_request', message: err.message };
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    if (err.name === 'ZodError') return { error: 'invalid_request', message: 'Invalid input.' };
    return { error: typeof code === 'string' ? code : err.name || 'error', message: err.message };
  }
  return { error: 'error', message: String(err) };
}

/** HTTP status for an API error body (web mode). */
export function statusForApiError(body: ApiErrorBody): number {
  if (body.error === 'keys_required') return 403;
  return body.error === 'invalid_request' ? 400 : 500;
}
