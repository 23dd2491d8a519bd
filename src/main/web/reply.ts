/** The web host's answers: JSON (never cached), its error shape, short pages, the redirect home. */
import type { ServerResponse } from 'node:http';
import type { ReplyError } from '../../node/http/server/reply-error.js';
import { sendJson } from '../../node/http/server/respond.js';
import type { RequestResult } from '../../shared/ipc.js';
import { SECURITY_HEADERS } from './static.js';

export function sendWebJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
): void {
  sendJson(res, status, body, { 'cache-control': 'no-store', ...SECURITY_HEADERS, ...extra });
}

/** An error as the renderer's bridge reads every failure: a RequestResult that is not ok. */
export function sendWebError(res: ServerResponse, err: ReplyError): void {
  const body: RequestResult<never> = {
    ok: false,
    error: { error: err.code, message: err.message },
  };
  sendWebJson(res, err.status, body, err.headers);
}

/** A short HTML page (a browser visit without a session: JSON would mean nothing to a user). */
export function sendPage(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    ...SECURITY_HEADERS,
    ...headers,
  });
  res.end(`<!doctype html><title>Macrobell</title>${html}`);
}

/** Back to the app without the login code in the address bar (with a new session's cookie). */
export function redirectHome(res: ServerResponse, location = '/', cookie?: string): void {
  res.writeHead(303, {
    location,
    ...(cookie ? { 'set-cookie': cookie } : {}),
    'cache-control': 'no-store',
    ...SECURITY_HEADERS,
  });
  res.end();
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
