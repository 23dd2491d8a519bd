/** Writing answers: JSON with its length, and the one error body shape `{error, message}`. */
import type { ServerResponse } from 'node:http';
import type { ReplyError } from './reply-error.js';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** A JSON answer already rendered to text (hot paths render once, answer many). */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendReplyError(
  res: ServerResponse,
  err: ReplyError,
  headers: Record<string, string> = {},
): void {
  const body = err.body ?? { error: err.code, message: err.message };
  sendJson(res, err.status, body, { ...headers, ...err.headers });
}
