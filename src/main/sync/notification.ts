/**
 * What a notification body is before it is applied: refused when nested too deep or
 * malformed (never retried), and identified by a stable key so a re-delivery is a no-op.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { InvalidNotificationError } from '../errors.js';

/** Real notifications are a few levels deep; anything deeper is refused before it is walked. */
const MAX_DEPTH = 32;

/** Depth check without recursion: a 20,000-level body must not overflow the stack here. */
export function isShallow(value: unknown, maxDepth = MAX_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== 'object' || v === null) continue;
    if (depth > maxDepth) return false;
    for (const child of Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return true;
}

/** Refuse a body too deep to walk safely; the message names the limit. */
export function assertShallow(payload: unknown): void {
  if (!isShallow(payload)) {
    throw new InvalidNotificationError(`notification nested deeper than ${MAX_DEPTH} levels`);
  }
}

/** Parse a notification body with its type's schema, or throw a readable reason. */
export function parseNotification<T>(schema: z.ZodType<T>, payload: unknown): T {
  const r = schema.safeParse(payload);
  if (!r.success) {
    throw new InvalidNotificationError(`invalid notification: ${z.prettifyError(r.error)}`);
  }
  return r.data;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON with keys in order: the same object, whatever its key order, is the same text. */
function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  if (isRecord(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** A stable identity for a notification: the same delivery twice has the same key. */
export function notificationKey(n: { type: string } & Record<string, unknown>): string {
  return createHash('sha256').update(stableStringify(n)).digest('base64url').slice(0, 32);
}
