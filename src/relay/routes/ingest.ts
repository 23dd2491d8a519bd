/**
 * `POST /hooks/{secret}`: stores a webhook and answers 204 only after the commit. The
 * hot path: a plain `/hooks/<segment>` skips URL parsing and the route table (handler.ts
 * calls `hook` straight away); refusals whose body may still be arriving are answered once
 * it is dropped (drain.ts), so the sender sees the answer and not a reset.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constantTimeEqual } from '../../node/security/compare.js';
import { StoreUnavailable } from '../log/event-log.js';
import { RelayErrors } from '../errors.js';
import { readWebhook } from '../ingest/ingest.js';
import type { RelayContext, RelayRoute } from './context.js';

export type IngestContext = Pick<
  RelayContext,
  | 'secret'
  | 'retiringSecrets'
  | 'unknownSecrets'
  | 'desk'
  | 'events'
  | 'bodyBudget'
  | 'counters'
  | 'logger'
>;

/** A path segment that WHATWG URL parsing keeps byte for byte and that needs no decoding. */
const PLAIN_SEGMENT = /^(?!\.\.?$)[\w.~-]+$/;
const PREFIX = '/hooks/';

/**
 * The segment of a plain `/hooks/<segment>` request target (no query, escapes, dot
 * segments or backslashes: what URL parsing would leave as is), else null.
 */
export function plainHookSegment(rawTarget: string): string | null {
  if (!rawTarget.startsWith(PREFIX)) return null;
  const segment = rawTarget.slice(PREFIX.length);
  return PLAIN_SEGMENT.test(segment) ? segment : null;
}

/** A malformed escape is no secret: '' (then 404). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

/** SQLite's "database or disk is full", or the file system's own (an fsync of the WAL). */
const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC']);
const isDiskFull = (err: unknown) =>
  typeof err === 'object' &&
  err !== null &&
  DISK_FULL_CODES.has(String((err as { code?: unknown }).code));

/** A store that is away or full is a 503 the service retries; anything else is the caller's. */
function storeError(ctx: IngestContext, err: unknown): unknown {
  if (isDiskFull(err)) {
    ctx.logger?.warn({ reason: (err as Error).message }, 'disk full; webhook refused with 503');
    return RelayErrors.DISK_FULL();
  }
  if (!(err instanceof StoreUnavailable)) return err;
  // The cause's message only: a client-library error can carry the command's arguments.
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  ctx.logger?.warn({ reason: err.message, cause }, 'store unavailable; webhook refused with 503');
  return RelayErrors.STORE_UNAVAILABLE(err.message);
}

/**
 * Reads, checks and stores the webhook, then answers 204; or calls `fail` with what to
 * answer instead. Callbacks and one promise (the store's): this runs for every webhook.
 */
function ingest(
  ctx: IngestContext,
  req: IncomingMessage,
  res: ServerResponse,
  fail: (err: unknown) => void,
): void {
  readWebhook(req, ctx.bodyBudget, (result) => {
    if (result instanceof Error) return fail(result);
    if (!result.ok) {
      const { error } = result;
      if (error.status !== 503) ctx.counters.rejected++;
      // A 400 has read the whole body; a 413 or 503 stopped reading part-way.
      return fail(error.status === 400 ? error : error.afterDrain());
    }
    const refuse = (err: unknown) => {
      ctx.bodyBudget.give(result.held);
      fail(storeError(ctx, err));
    };
    // This runs in the body's 'end' listener: a store that throws is refused, not a crash.
    try {
      ctx.events.append(result.body, result.type, result.headers).then(() => {
        ctx.bodyBudget.give(result.held);
        res.writeHead(204).end();
      }, refuse);
    } catch (err) {
      refuse(err);
    }
  });
}

/** The node's secret, one retiring in a rotation window, or one a rotation added since start. */
function acceptedSecret(ctx: IngestContext, segment: string): boolean {
  if (constantTimeEqual(segment, ctx.secret)) return true;
  for (const s of ctx.retiringSecrets) if (constantTimeEqual(segment, s)) return true;
  return ctx.desk.isRotatedSecret(segment);
}

/**
 * A webhook to `segment`: the secret first (a wrong one is 404 whatever the method).
 * Whatever is not a 204 goes to `fail`, once (also what the checks throw).
 */
export function hook(
  ctx: IngestContext,
  req: IncomingMessage,
  res: ServerResponse,
  segment: string,
  fail: (err: unknown) => void,
): void {
  if (!acceptedSecret(ctx, segment)) {
    // A delivery (POST) only: `register` asks with GET whether a secret is accepted yet.
    if (req.method === 'POST') ctx.unknownSecrets.refused();
    return fail(RelayErrors.NOT_FOUND().afterDrain());
  }
  if (req.method !== 'POST') return fail(RelayErrors.METHOD_NOT_ALLOWED('POST').afterDrain());
  ingest(ctx, req, res, fail);
}

export const ingestRoute: RelayRoute<IngestContext> = {
  method: '*',
  path: '/hooks/*secret',
  decode: false,
  handle: ({ ctx, req, res, params }) =>
    new Promise<void>((resolve, reject) => {
      res.once('finish', () => resolve());
      hook(ctx, req, res, decodeSegment(params.secret ?? ''), reject);
    }),
};
