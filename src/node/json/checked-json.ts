/**
 * JSON text from outside the code's control (a column, a Redis value, a stream entry), read
 * the one way: parsed, then checked against a zod schema, so a value written by another
 * version or by hand fails here, naming `what` and the fields, instead of far away as a
 * wrong value. The message names fields, never values (they may be secrets).
 */
import type { z } from 'zod';

export class CheckedJsonError extends Error {
  constructor(what: string, problem: string) {
    super(`${what}: ${problem}`);
    this.name = 'CheckedJsonError';
  }
}

export function parseCheckedJson<S extends z.ZodType>(
  what: string,
  schema: S,
  text: string,
): z.infer<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CheckedJsonError(what, 'not valid JSON');
  }
  const checked = schema.safeParse(raw);
  if (checked.success) return checked.data;
  const fields = [...new Set(checked.error.issues.map((i) => i.path.join('.') || '(the value)'))];
  throw new CheckedJsonError(what, `a wrong or missing ${fields.join(', ')}`);
}
