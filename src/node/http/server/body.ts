/** Reading a request body, bounded: past the limit it is a 413, never a buffer that grows. */
import type { IncomingMessage } from 'node:http';
import { ReplyError } from './reply-error.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The whole body, up to `limit` bytes; past that the reading stops with a 413. */
export function readBody(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) return reject(tooLarge(limit));
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= limit) return void chunks.push(c);
      // Stop keeping it; whoever answers the 413 decides whether to drain or cut.
      req.off('data', onData);
      chunks.length = 0;
      reject(tooLarge(limit));
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function tooLarge(limit: number): ReplyError {
  return new ReplyError(413, 'payload_too_large', `The body is over ${limit} bytes`, {
    connection: 'close',
  });
}

/** The media type of a request, lower-case, without parameters ('' when absent). */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** A JSON body: 415 unless sent as application/json, 400 when it does not parse. */
export async function readJson(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
  const body = await readBody(req, limit);
  if (mediaType(req) !== 'application/json')
    throw new ReplyError(
      415,
      'unsupported_media_type',
      'Send JSON with Content-Type: application/json',
    );
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ReplyError(400, 'invalid_json', 'The body is not valid JSON');
  }
}
