/**
 * How the feed routes answer when a store fails: Redis away → 503 with Retry-After (as
 * /events does for the users store), this node's key not the desk's → 503 with what to do,
 * logged once (not on every poll of every calendar app); anything else → 500. Only error
 * messages are logged: a Redis error object can carry a command's arguments.
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { StoreUnavailable } from '../event-log.js';
import { sendError } from '../http-util.js';
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

const UNAVAILABLE = 'The relay cannot reach its store now; try again shortly.';
const FAILED = 'The relay could not serve the calendar feed; its log says why.';

export interface FeedFailure {
  /** Answers a failed request (false only when its answer was already under way). */
  answer(res: ServerResponse, err: unknown, asText: boolean): boolean;
  /** The key matched: a later mismatch is logged again. */
  keyOk(): void;
}

export function feedFailure(logger: Logger | undefined): FeedFailure {
  let keyLogged = false;
  return {
    answer(res, err, asText) {
      if (res.headersSent) return false;
      if (err instanceof FeedKeyMismatch) {
        if (!keyLogged) logger?.error(`calendar feed refused: ${err.message}`);
        keyLogged = true;
        const text = `This relay node cannot serve calendar feeds: ${err.message}.`;
        if (asText) plain(res, 503, text);
        else sendError(res, 503, 'feed_key_mismatch', text);
        return true;
      }
      const reason = messageOf(err);
      if (!(err instanceof StoreUnavailable)) {
        logger?.warn({ reason }, 'calendar feed: request failed');
        if (asText) plain(res, 500, FAILED);
        else sendError(res, 500, 'server_error', FAILED);
        return true;
      }
      logger?.warn({ reason }, 'calendar feed: the store is unavailable; request refused with 503');
      const headers = { 'retry-after': '1' };
      if (asText) plain(res, 503, UNAVAILABLE, headers);
      else sendError(res, 503, 'store_unavailable', UNAVAILABLE, headers);
      return true;
    },
    keyOk() {
      keyLogged = false;
    },
  };
}
