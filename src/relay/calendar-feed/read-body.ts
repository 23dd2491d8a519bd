/** A small JSON request body, bounded (the shared kit's reader), with the reason in words. */
import type { IncomingMessage } from 'node:http';
import { mediaType, readBody } from '../../node/http/server/body.js';
import { ReplyError } from '../../node/http/server/reply-error.js';

const MAX_BYTES = 64 * 1024;

export type JsonBody =
  { ok: true; value: unknown } | { ok: false; status: 400 | 413 | 415; message: string };

export async function readJsonBody(req: IncomingMessage): Promise<JsonBody> {
  if (mediaType(req) !== 'application/json') {
    req.resume();
    return { ok: false, status: 415, message: 'Send the body as application/json' };
  }
  let body: Buffer;
  try {
    body = await readBody(req, MAX_BYTES);
  } catch (err) {
    if (!(err instanceof ReplyError) || err.status !== 413) throw err;
    // The rest is read and dropped, so the client gets the answer rather than a reset.
    req.resume();
    return { ok: false, status: 413, message: 'The body is limited to 64 KiB' };
  }
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return { ok: false, status: 400, message: 'The body is not valid JSON' };
  }
}
