/**
 * Both sides of a call validated: the caller's arguments (the error names the endpoint
 * and the argument) and the service's answers (loosely: unknown fields are kept, and the
 * raw JSON is returned beside the value, so the store never loses a field).
 */
import { z } from 'zod';
import type { Raw } from '../sync/ports.js';
import { ApiInputError, ResponseShapeError } from './errors.js';

export const idSchema = z.string().trim().min(1).max(200);
export const cultureSchema = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,4})?$/, 'expected a culture such as en-US');
export const pageSchema = z.number().int().min(1).max(10_000);
const listSchema = z.array(z.string().trim().min(1).max(100)).max(100).optional();
export const eventDatesQuerySchema = z
  .object({
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
    volatilities: listSchema,
    countries: listSchema,
    categories: listSchema,
  })
  .refine((q) => Date.parse(q.from) <= Date.parse(q.to), {
    message: 'from must not be after to',
    path: ['to'],
  });

/** Validate a caller's arguments; the error names the endpoint and the argument. */
export function input<S extends z.ZodType>(
  schema: S,
  value: unknown,
  endpoint: string,
): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new ApiInputError(endpoint, z.prettifyError(r.error));
  return r.data;
}

/** One answer: its shape checked (else a ResponseShapeError), mapped, the raw JSON kept. */
export function one<S extends z.ZodType, T>(
  schema: S,
  json: unknown,
  endpoint: string,
  map: (v: z.infer<S>) => T,
): Raw<T> {
  const r = schema.safeParse(json);
  if (!r.success) throw new ResponseShapeError(endpoint, z.prettifyError(r.error));
  return { value: map(r.data), raw: json };
}

/** Says which item of a list was skipped, and why. */
export type OnInvalidItem = (endpoint: string, issues: string) => void;

/** Lists: an invalid item is skipped and reported, not allowed to fail the page. */
export function many<S extends z.ZodType, T>(
  schema: S,
  json: unknown,
  endpoint: string,
  map: (v: z.infer<S>) => T,
  onInvalid: OnInvalidItem,
): Raw<T>[] {
  if (!Array.isArray(json)) throw new ResponseShapeError(endpoint, 'expected an array');
  const out: Raw<T>[] = [];
  for (const item of json) {
    const r = schema.safeParse(item);
    if (r.success) out.push({ value: map(r.data), raw: item });
    else onInvalid(endpoint, z.prettifyError(r.error));
  }
  return out;
}
