/** A small JSON request body, bounded, with the reason in words when it is not one. */
import type { IncomingMessage } from 'node:http';

const MAX_BYTES = 64 * 1024;

export type JsonBody =
  { ok: true; value: unknown } | { ok: false; status: 400 | 413 | 415; message: string };

export async function readJsonBody(req: IncomingMessage): Promise<JsonBody> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    return { ok: false, status: 415, message: 'Send the body as application/json' };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BYTES) {
      req.resume();
      return { ok: false, status: 413, message: 'The body is limited to 64 KiB' };
    }
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { ok: false, status: 400, message: 'The body is not valid JSON' };
  }
}
