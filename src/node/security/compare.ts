/**
 * The one place secrets are compared and bearer tokens are read, for the app's web host
 * and the relay alike: constant time for equal lengths (only the length may leak).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The token of `Authorization: Bearer <token>`, or null when absent or malformed. */
export function bearerToken(req: Pick<IncomingMessage, 'headers'>): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return m?.[1] ?? null;
}

/** SHA-256 hex of a high-entropy token: what is stored instead of the token itself. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
