/**
 * How the feed routes answer when a store fails: Redis away → 503 with Retry-After (as
 * /events does for the users store), this node's key not the desk's → 503 with what to do,
 * logged once (not on every poll of every calendar app); anything else → 500. Only error
 * messages are logged: a Redis error object can carry a command's arguments.
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { StoreUnavailable } from '../log/event-log.js';
import { RelayErrors, type RelayError } from '../errors.js';
import { sendReplyError } from '../http-util.js';
import { FeedKeyMismatch } from './feed-key.js';
import { messageOf } from '../../shared/error-message.js';

export function plain(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...headers,
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
  });
  res.end(`${text}\n`);
}

export interface FeedFailure {
  /** Answers a failed request (false only when its answer was already under way). */
  answer(res: ServerResponse, err: unknown, asText: boolean): boolean;
  /** The key matched: a later mismatch is logged again. */
  keyOk(): void;
}

export function feedFailure(logger: Logger | undefined): FeedFailure {
  let keyLogged = false;
  /** The catalogue's error for what went wrong, logged (a key mismatch once). */
  function errorFor(err: unknown): RelayError {
    if (err instanceof FeedKeyMismatch) {
      if (!keyLogged) logger?.error(`calendar feed refused: ${err.message}`);
      keyLogged = true;
      return RelayErrors.FEED_KEY_MISMATCH(
        `This relay node cannot serve calendar feeds: ${err.message}.`,
      );
    }
    const reason = messageOf(err);
    if (!(err instanceof StoreUnavailable)) {
      logger?.warn({ reason }, 'calendar feed: request failed');
      return RelayErrors.FEED_FAILED();
    }
    logger?.warn({ reason }, 'calendar feed: the store is unavailable; request refused with 503');
    return RelayErrors.FEED_STORE_UNAVAILABLE();
  }
  return {
    answer(res, err, asText) {
      if (res.headersSent) return false;
      const e = errorFor(err);
      // The .ics answers plain text (a calendar app shows it); the others JSON.
      if (asText) plain(res, e.status, e.message, e.headers);
      else sendReplyError(res, e);
      return true;
    },
    keyOk() {
      keyLogged = false;
    },
  };
}
