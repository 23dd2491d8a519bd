/**
 * `POST /api/<method>`: the app's API (src/shared/ipc.ts) over HTTP. The input is
 * validated before the service sees it; every answer is a RequestResult, a failure one
 * line a user may read, never a stack trace.
 */
import type { IncomingMessage } from 'node:http';
import { mediaType, readBody } from '../../../node/http/server/body.js';
import {
  isRequestMethod,
  parseRequest,
  WEB_API_PREFIX,
  WEB_EVENTS_PATH,
  WEB_LOGOUT_PATH,
  type ApiErrorBody,
} from '../../../shared/ipc.js';
import { statusForApiError, toApiError } from '../../errors.js';
import type { WebRoute } from '../context.js';
import { webErrors } from '../errors.js';
import { sendWebJson } from '../reply.js';

/** One line, bounded: what a user may read, never a stack trace. */
function userSafe(body: ApiErrorBody): ApiErrorBody {
  const line = body.message.split('\n')[0] ?? '';
  return { error: body.error, message: line.length > 500 ? `${line.slice(0, 500)}…` : line };
}

/** The JSON input (undefined for an empty body or `null`): 415 unless sent as JSON. */
async function readInput(req: IncomingMessage): Promise<unknown> {
  const text = (await readBody(req)).toString('utf8');
  if (text.length === 0) return undefined;
  if (mediaType(req) !== 'application/json') throw webErrors.unsupportedMediaType();
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    throw webErrors.invalidJson();
  }
  return input === null ? undefined : input;
}

/** The streams and logout have their own routes (and methods): never an API method. */
const ownRoutes = [WEB_EVENTS_PATH, WEB_LOGOUT_PATH]
  .map((p) => `${p.slice(WEB_API_PREFIX.length)}$`)
  .join('|');

export const apiRoute: WebRoute = {
  method: 'POST',
  path: `${WEB_API_PREFIX}:method((?!${ownRoutes}).*)`,
  async handle({ ctx, req, res, params }) {
    const method = params.method ?? '';
    if (!isRequestMethod(method)) throw webErrors.unknownMethod(method);
    const input = await readInput(req);
    try {
      const parsed = parseRequest(method, input);
      // The browser opens links itself (target=_blank); the host never launches anything.
      if (method === 'openExternal') return sendWebJson(res, 200, { ok: true, value: null });
      const call = ctx.service.api[method] as (i: unknown) => Promise<unknown>;
      const value = await call(parsed);
      sendWebJson(res, 200, { ok: true, value: value ?? null });
    } catch (err) {
      const body = userSafe(toApiError(err));
      sendWebJson(res, statusForApiError(body), { ok: false, error: body });
    }
  },
};
