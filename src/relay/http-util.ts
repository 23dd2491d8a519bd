/**
 * The relay's answers, written by the shared kit (src/node/http/server/respond.ts): every
 * JSON answer of the relay is `no-store` (tokens, watch lists, events — never cached).
 */
import type { ServerResponse } from 'node:http';
import type { ReplyError } from '../node/http/server/reply-error.js';
import * as kit from '../node/http/server/respond.js';

const NO_STORE = { 'cache-control': 'no-store' };

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  kit.sendJson(res, status, body, NO_STORE);
}

/** A JSON answer already rendered to text. */
export function sendJsonText(res: ServerResponse, status: number, text: string): void {
  kit.sendJsonText(res, status, text, NO_STORE);
}

/** An error from the catalogue (errors.ts) or any ReplyError, as `{error, message}`. */
export function sendReplyError(
  res: ServerResponse,
  err: ReplyError,
  headers: Record<string, string> = {},
): void {
  kit.sendReplyError(res, err, { ...NO_STORE, ...headers });
}
