import { z } from 'zod';
import { ReplyError } from '../../node/http/server/reply-error.js';

/** A request body checked against `schema`; a 400 that says what is wrong otherwise. */
export function parseBody<T>(schema: z.ZodType<T>, value: unknown, message?: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new ReplyError(400, 'invalid_request', message ?? z.prettifyError(r.error));
  return r.data;
}
