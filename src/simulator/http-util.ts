/** Request/response helpers for the simulator: bounded bodies and JSON errors. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_BODY_BYTES = 1024 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly body?: unknown,
  ) {
    super(message);
  }
}

/** Read a body up to 1 MiB; past that, stop reading and answer 413. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(tooLarge(limit));
        // stop reading: drop what is buffered and pause; the 413 closes the connection
        req.removeAllListeners('data');
        req.pause();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'payload_too_large', `Body over ${limit} bytes`, {
    connection: 'close',
  });
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  const body = await readBody(req);
  if (type !== 'application/json') {
    throw new HttpError(
      415,
      'unsupported_media_type',
      'Send JSON with Content-Type: application/json',
    );
  }
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new HttpError(400, 'invalid_json', 'The body is not valid JSON');
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, err.body ?? { error: err.code, message: err.message }, err.headers);
}

/** Decode one path segment; a malformed escape is the client's mistake (400), not ours. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'invalid_path', 'The path has a malformed %-escape');
  }
}
