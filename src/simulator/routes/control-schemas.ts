/** Bodies the control API accepts; anything else is a 400 naming the field. */
import { z } from 'zod';

const volatility = z.enum(['NONE', 'LOW', 'MEDIUM', 'HIGH']);
const potency = z.enum(['ZERO', 'K', 'M', 'B', 'T']);
const culture = z.string().regex(/^[a-z]{2}-[A-Z]{2}$/);

export const eventBody = z.object({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  countryCode: z.string().min(2).max(4),
  currencyCode: z.string().min(3).max(3),
  description: z.string().optional(),
  categoryId: z.string().optional(),
  volatility: volatility.optional(),
  unit: z.string().nullable().optional(),
  potency: potency.optional(),
  // its releases carry them (a speech is tagged in the calendar)
  isSpeech: z.boolean().optional(),
  isReport: z.boolean().optional(),
});
const nullableNumber = z.number().finite().nullable();
const isoDate = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO-8601 date');
/** The event-date fields the control API may set (anything else is a 400). */
const eventDateFields = {
  dateUtc: isoDate,
  periodDateUtc: isoDate.nullable(),
  periodType: z.string().min(1).nullable(),
  actual: nullableNumber,
  revised: nullableNumber,
  consensus: nullableNumber,
  previous: nullableNumber,
  ratioDeviation: nullableNumber,
  isBetterThanExpected: z.boolean().nullable(),
  name: z.string().min(1),
  unit: z.string().nullable(),
  potency: potency.nullable(),
  volatility,
  isAllDay: z.boolean(),
  isTentative: z.boolean(),
  isPreliminary: z.boolean(),
};
export const eventDateBody = z
  .strictObject({ eventId: z.string().min(1), id: z.string().min(1).optional() })
  .extend(z.object(eventDateFields).partial().shape);
export const eventDatePatch = z.strictObject(eventDateFields).partial();
export const postBody = z.object({
  id: z.string().min(1).optional(),
  culture,
  title: z.string().min(1).optional(),
  summary: z.string().optional(),
  content: z.string().optional(),
});
export const postPatch = z.object({
  culture: culture.default('en-US'),
  title: z.string().optional(),
  summary: z.string().optional(),
  content: z.string().optional(),
});
export const clockBody = z.object({
  advanceMs: z
    .number()
    .int()
    .min(0)
    .max(366 * 86_400_000)
    .optional(),
  speed: z.number().min(0).max(10_000).optional(),
});
export const faultsBody = z.object({
  token: z
    .object({
      status: z.number().int().min(400).max(599),
      error: z.string().min(1),
      count: z.number().int().positive().optional(),
    })
    .optional(),
  api: z
    .object({
      status: z.union([
        z.literal(429),
        z.literal(500),
        z.literal(502),
        z.literal(503),
        z.literal(504),
      ]),
      retryAfterSec: z.number().int().min(0).max(3600).optional(),
      count: z.number().int().positive().optional(),
    })
    .optional(),
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  tokenLifetimeSec: z.number().int().min(1).max(86_400).optional(),
  expireTokens: z.literal(true).optional(),
  deliveries: z
    .object({
      drop: z.number().int().min(0).optional(),
      duplicate: z.number().int().min(0).optional(),
    })
    .optional(),
});
