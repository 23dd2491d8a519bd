/**
 * The domain's records as zod schemas, typed against their interfaces so the two cannot
 * drift: for what crosses a boundary as JSON (pushes, records kept as JSON in the cache).
 */
import { z } from 'zod';
import type { CalendarEvent, EventDate, Post } from './domain.js';

const nullableNumber = z.number().nullable();
const nullableString = z.string().nullable();

export const eventDateSchema: z.ZodType<EventDate> = z.object({
  id: z.string(),
  eventId: z.string(),
  dateUtc: z.string(),
  periodDateUtc: nullableString,
  periodType: nullableString,
  actual: nullableNumber,
  revised: nullableNumber,
  consensus: nullableNumber,
  ratioDeviation: nullableNumber,
  previous: nullableNumber,
  isBetterThanExpected: z.boolean().nullable(),
  name: z.string(),
  countryCode: z.string(),
  currencyCode: z.string(),
  unit: nullableString,
  potency: nullableString,
  volatility: z.string(),
  isAllDay: z.boolean(),
  isTentative: z.boolean(),
  isPreliminary: z.boolean(),
  isReport: z.boolean(),
  isSpeech: z.boolean(),
  lastUpdated: z.number(),
  decimals: z.number().optional(),
});

export const calendarEventSchema: z.ZodType<CalendarEvent> = z.object({
  id: z.string(),
  name: z.string(),
  description: nullableString,
  countryCode: z.string(),
  currencyCode: z.string(),
  categoryId: nullableString,
  periodType: nullableString,
  unit: nullableString,
  potency: nullableString,
  volatility: z.string(),
  isSpeech: z.boolean(),
  isReport: z.boolean(),
});

export const postSchema: z.ZodType<Post> = z.object({
  id: z.string(),
  culture: z.string(),
  title: z.string(),
  summary: nullableString,
  contentHtml: z.string(),
  publicationDate: z.string(),
  updateDate: nullableString,
  url: nullableString,
  imageUrl: nullableString,
  authorName: nullableString,
  companyName: nullableString,
  categories: z.array(z.string()),
  tags: z.array(z.string()),
});
