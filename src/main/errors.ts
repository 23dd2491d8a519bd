/**
 * The app core's error catalogue (as fastify's lib/errors.js): every code the app's API
 * answers with — its status in web mode and, where it has one, its message — and the
 * errors the core throws on purpose, in one place. Codes of src/node's errors (network,
 * bad_response, invalid_input, webhook_limit, AuthError's OAuth codes) cross as they
 * are, as a 500 in web mode. The web host's own answers: src/main/web/errors.ts. And what
 * each failure means to sync (`failureKind`: connectivity, retryable), by class.
 */
import Database from 'better-sqlite3';
import { z } from 'zod';
import { errors as undiciErrors } from 'undici';
import type { ApiErrorBody } from '../shared/ipc.js';
import { InvalidRequestError } from '../shared/ipc.js';
import { HttpError, NetworkError } from '../node/http/client.js';
import { AuthError } from '../node/oauth/errors.js';
import {
  ApiInputError,
  NotFoundError,
  ResponseShapeError,
  ServiceUrlError,
  WebhookLimitError,
} from '../node/service/errors.js';

export const APP_ERRORS = {
  /** A request that fails its schema (src/shared/ipc.ts), or a link that is not http(s). */
  invalid_request: { status: 400, message: 'Invalid input.' },
  /** A change that needs the stored private key or relay token entered again. */
  keys_required: { status: 403 },
  /** An IPC request from a frame that is not the app's window. */
  forbidden: { status: 403, message: 'Request from an unknown sender.' },
  unknown_method: { status: 404 },
  no_update: { status: 409, message: 'No update is ready to install.' },
  keychain_unavailable: { status: 500 },
  /** The cache database (StoreError): damaged, from a newer app, or not openable. */
  damaged: { status: 500 },
  newer_version: { status: 500 },
  cannot_open: { status: 500 },
} as const satisfies Record<string, { status: number; message?: string }>;

export type AppErrorCode = keyof typeof APP_ERRORS;

/** The body of an answer with this code (its catalogue message unless another is given). */
export function apiError(
  code: 'invalid_request' | 'forbidden' | 'no_update' | 'unknown_method',
  message?: string,
): ApiErrorBody {
  const entry = APP_ERRORS[code] as { message?: string };
  return { error: code, message: message ?? entry.message ?? code };
}

/** An error the core throws on purpose: a catalogue code and a message a user can act on. */
export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return APP_ERRORS[this.code].status;
  }
}

const KEYS_REQUIRED = {
  serviceUrls:
    'Changing the service URLs while API keys are stored needs the private key: enter the keys again together with the new URLs.',
  relayUrl:
    'Changing the relay URL while a relay token is stored needs the token: enter it again together with the new URL (or remove the relay first).',
  keys: 'Replacing the stored API keys (or the service URLs with them) needs the current private key: enter it in "Current private key".',
  removeKeys:
    'Removing the stored API keys needs the current private key: enter it in "Current private key".',
} as const;

/** Keys and tokens go wherever the URLs point: changing either needs the secret again. */
export class KeysRequiredError extends AppError {
  override name = 'KeysRequiredError';
  constructor(change: keyof typeof KEYS_REQUIRED) {
    super('keys_required', KEYS_REQUIRED[change]);
  }
}

export class KeychainUnavailableError extends AppError {
  override name = 'KeychainUnavailableError';
  constructor(message: string) {
    super('keychain_unavailable', message);
  }
}

/** Store failures a user can act on: each names the database file. */
export class StoreError extends AppError {
  override name = 'StoreError';
  constructor(
    message: string,
    override readonly code: 'damaged' | 'newer_version' | 'cannot_open',
    readonly path: string,
  ) {
    super(code, message);
  }
}

/** A notification body that is not a usable notification: never retried, counted as bad. */
export class InvalidNotificationError extends Error {
  override name = 'InvalidNotificationError';
}

/** Turn any error into what may cross to the renderer: a code and a plain message, no stack, no secrets. */
export function toApiError(err: unknown): ApiErrorBody {
  if (err instanceof InvalidRequestError) return { error: 'invalid_request', message: err.message };
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    if (err instanceof z.ZodError) return apiError('invalid_request');
    return { error: typeof code === 'string' ? code : err.name || 'error', message: err.message };
  }
  return { error: 'error', message: String(err) };
}

/** HTTP status for an API error body (web mode): the catalogue's, else 500. */
export function statusForApiError(body: ApiErrorBody): number {
  const entry = (APP_ERRORS as Record<string, { status: number }>)[body.error];
  return entry?.status ?? 500;
}

/**
 * What a failure means to sync, by the error's class (never its name or a `code` string):
 * - `connectivity`: the service cannot be reached or refuses us — the status says Offline;
 * - `retryable`: the same item may apply later (the machine or the network is at fault,
 *   not the item) — the relay cursor stays, the webhook is answered with an error.
 * Anything not listed is a bug: neither (logged, the item counted bad, never retried forever).
 */
export interface FailureKind {
  connectivity: boolean;
  retryable: boolean;
}

const OUTAGE: FailureKind = { connectivity: true, retryable: true };
/** An answer about the data (gone, malformed, refused): the service is up, the item is bad. */
const ABOUT_THE_ITEM: FailureKind = { connectivity: false, retryable: false };
/** The machine's trouble (disk full, database locked, a request cut short by a stop). */
const LOCAL: FailureKind = { connectivity: false, retryable: true };
const BUG: FailureKind = { connectivity: false, retryable: false };

/** 5xx, 429 (slow down) and 401 (the token refused) are the service's state, not the item's. */
const outageStatus = (status: number) => status >= 500 || status === 429 || status === 401;

type ErrorClass = abstract new (...args: never[]) => Error;

const FAILURES: readonly (readonly [ErrorClass, FailureKind | ((e: never) => FailureKind)])[] = [
  [NetworkError, OUTAGE],
  // The token service down, or the keys refused: Offline with the reason, retried once fixed.
  [AuthError, OUTAGE],
  [HttpError, (e: HttpError) => (outageStatus(e.status) ? OUTAGE : ABOUT_THE_ITEM)],
  [NotFoundError, ABOUT_THE_ITEM],
  // A wrong base URL: the status says so and the item waits for the fix.
  [ServiceUrlError, OUTAGE],
  [ResponseShapeError, ABOUT_THE_ITEM],
  [ApiInputError, ABOUT_THE_ITEM],
  [WebhookLimitError, ABOUT_THE_ITEM],
  [InvalidNotificationError, ABOUT_THE_ITEM],
  [Database.SqliteError, (e: InstanceType<typeof Database.SqliteError>) => sqliteKind(e.code)],
  [StoreError, LOCAL],
  [undiciErrors.RequestAbortedError, LOCAL],
];

/**
 * SQLite's result codes that are about the statement or the row, not the machine: the same
 * item fails the same way every time (a constraint, a value that does not fit, a corrupt
 * page, SQL the code got wrong), so it is counted bad instead of retried forever. The rest
 * (busy, locked, disk full, I/O, read-only, out of memory) are the machine's, retried.
 */
const SQLITE_ABOUT_THE_ITEM = /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE|CORRUPT|NOTADB|ERROR$)/;

function sqliteKind(code: string): FailureKind {
  return SQLITE_ABOUT_THE_ITEM.test(code) ? ABOUT_THE_ITEM : LOCAL;
}

export function failureKind(err: unknown): FailureKind {
  for (const [cls, kind] of FAILURES) {
    if (err instanceof cls)
      return typeof kind === 'function' ? (kind as (e: Error) => FailureKind)(err) : kind;
  }
  return BUG;
}
