/**
 * Reading and checking one webhook POST: the body is kept byte for byte (never
 * re-serialised), must be a JSON object with a string `type`, and is capped at 1 MiB —
 * reading stops as soon as the cap is passed.
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Headers worth keeping beside the body (provenance for debugging; no secrets). */
const KEPT_HEADERS = [
  'content-type',
  'user-agent',
  'x-request-id',
  'x-correlation-id',
  'x-webhook-id',
  'x-forwarded-for',
];

const notificationBody = z.looseObject({ type: z.string() });

export type IngestResult =
  | { ok: true; body: Buffer; type: string; headers: Record<string, string> }
  | { ok: false; status: 400 | 413; error: string; message: string };

const tooLarge = {
  ok: false,
  status: 413,
  error: 'payload_too_large',
  message: `Webhook bodies are limited to ${MAX_BODY_BYTES} bytes`,
} as const;

/** Collects the body, or null once it passes the cap (reading stops there). */
function readCapped(req: IncomingMessage, cap: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        cleanup();
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onAborted = () => onError(new Error('the client closed the request before its end'));
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

export async function readWebhook(req: IncomingMessage): Promise<IngestResult> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return tooLarge;
  const body = await readCapped(req, MAX_BODY_BYTES);
  if (body === null) return tooLarge;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, status: 400, error: 'invalid_json', message: 'The body is not valid JSON' };
  }
  const checked = notificationBody.safeParse(parsed);
  if (!checked.success || Array.isArray(parsed)) {
    return {
      ok: false,
      status: 400,
      error: 'invalid_notification',
      message: 'Expected a JSON object with a string "type"',
    };
  }
  const headers: Record<string, string> = {};
  for (const h of KEPT_HEADERS) {
    const v = req.headers[h];
    if (typeof v === 'string') headers[h] = v.slice(0, 512);
  }
  return { ok: true, body, type: checked.data.type, headers };
}
