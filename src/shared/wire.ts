/**
 * Runtime schemas of what the market-data service sends (see
 * docs/service-api.md). Loose on purpose: unknown fields pass
 * through (`z.looseObject`) and are kept in the raw JSON; only the fields the app
 * indexes or shows are checked.
 */
import { z } from 'zod';
import type { EventDate, CalendarEvent, Post } from './domain.js';
import { htmlToText } from './html-text.js';

const nullableNumber = z
  .number()
  .nullable()
  .optional()
  .transform((v) => v ?? null);
const nullableString = z
  .string()
  .nullable()
  .optional()
  .transform((v) => v ?? null);
const flag = z
  .boolean()
  .nullable()
  .optional()
  .transform((v) => v ?? false);

export const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().min(1),
  expires_in: z.number().nonnegative(),
});

export const oauthErrorSchema = z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
});

export const eventDateWireSchema = z.looseObject({
  id: z.string().min(1),
  eventId: z.string().min(1),
  dateUtc: z.string().min(1),
  periodDateUtc: nullableString,
  periodType: nullableString,
  actual: nullableNumber,
  revised: nullableNumber,
  consensus: nullableNumber,
  ratioDeviation: nullableNumber,
  previous: nullableNumber,
  isBetterThanExpected: z
    .boolean()
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  name: z.string(),
  countryCode: z.string(),
  currencyCode: z.string(),
  unit: nullableString,
  potency: nullableString,
  volatility: z.string(),
  isAllDay: flag,
  isTentative: flag,
  isPreliminary: flag,
  isReport: flag,
  isSpeech: flag,
  lastUpdated: z.number(),
});

export const eventWireSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  description: nullableString,
  countryCode: z.string(),
  currencyCode: z.string(),
  categoryId: nullableString,
  periodType: nullableString,
  unit: nullableString,
  potency: nullableString,
  volatility: z.string(),
  isSpeech: flag,
  isReport: flag,
});

export const categoryWireSchema = z.looseObject({ id: z.string().min(1), name: z.string() });
export const assetWireSchema = z.looseObject({
  code: z.string(),
  name: z.string(),
  type: z.string(),
});

const named = z.looseObject({ Name: z.string().nullable().optional() });

export const postWireSchema = z.looseObject({
  Id: z.string().min(1),
  Title: z.string(),
  Summary: nullableString,
  Content: z
    .string()
    .nullable()
    .optional()
    .transform((v) => v ?? ''),
  Culture: z.string().optional(),
  PublicationDate: z.string().min(1),
  UpdateDate: nullableString,
  Url: nullableString,
  ImageUrl: nullableString,
  Author: named.nullable().optional(),
  Company: named.nullable().optional(),
  Categories: z.array(named).nullable().optional(),
  Tags: z.array(named).nullable().optional(),
});

export const feedPageWireSchema = z.looseObject({
  Values: z.array(z.unknown()),
  Page: z.number().optional(),
  PageSize: z.number().optional(),
  Total: z.number().optional(),
});

export const webhookWireSchema = z.looseObject({
  id: z.string().min(1),
  url: z.string(),
  createdAt: z.string().nullable().optional(),
  lastSentAt: z.string().nullable().optional(),
});
export type Webhook = z.infer<typeof webhookWireSchema>;

export const notificationSchema = z.looseObject({ type: z.string().min(1) });

export const eventCreatedSchema = z.looseObject({
  type: z.literal('event_created'),
  eventId: z.string().min(1),
});
export const eventDateUpdatedSchema = z.looseObject({
  type: z.literal('eventDate_updated'),
  eventDateId: z.string().min(1),
  eventId: z.string().min(1),
  lastUpdated: z.number(),
  changes: z.array(z.looseObject({ key: z.string().min(1), value: z.unknown() })),
});
export const eventDateLifecycleSchema = z.looseObject({
  type: z.enum(['eventDate_created', 'eventDate_deleted']),
  eventDateId: z.string().min(1),
  eventId: z.string().min(1),
  lastUpdated: z.number().optional(),
});
export const postNotificationSchema = z.looseObject({
  type: z.enum(['post_created', 'post_updated', 'post_deleted']),
  postId: z.string().min(1),
  culture: z.string().min(1).optional(),
  lastUpdated: z.number().optional(),
});

export function toEventDate(wire: z.infer<typeof eventDateWireSchema>): EventDate {
  return {
    id: wire.id,
    eventId: wire.eventId,
    dateUtc: wire.dateUtc,
    periodDateUtc: wire.periodDateUtc,
    periodType: wire.periodType,
    actual: wire.actual,
    revised: wire.revised,
    consensus: wire.consensus,
    ratioDeviation: wire.ratioDeviation,
    previous: wire.previous,
    isBetterThanExpected: wire.isBetterThanExpected,
    name: wire.name,
    countryCode: wire.countryCode,
    currencyCode: wire.currencyCode,
    unit: wire.unit,
    potency: wire.potency,
    volatility: wire.volatility,
    isAllDay: wire.isAllDay,
    isTentative: wire.isTentative,
    isPreliminary: wire.isPreliminary,
    isReport: wire.isReport,
    isSpeech: wire.isSpeech,
    lastUpdated: wire.lastUpdated,
  };
}

export function toCalendarEvent(wire: z.infer<typeof eventWireSchema>): CalendarEvent {
  return {
    id: wire.id,
    name: wire.name,
    description: wire.description,
    countryCode: wire.countryCode,
    currencyCode: wire.currencyCode,
    categoryId: wire.categoryId,
    periodType: wire.periodType,
    unit: wire.unit,
    potency: wire.potency,
    volatility: wire.volatility,
    isSpeech: wire.isSpeech,
    isReport: wire.isReport,
  };
}

/** Normalise a v4 post; `culture` is the culture it was fetched for when the body omits it. */
export function toPost(wire: z.infer<typeof postWireSchema>, culture: string): Post {
  const names = (list: z.infer<typeof named>[] | null | undefined): string[] =>
    (list ?? []).map((x) => x.Name ?? '').filter((n) => n.length > 0);
  return {
    id: wire.Id,
    culture: wire.Culture ?? culture,
    // Titles and summaries are shown as text: some sources send entities and tags in them.
    title: htmlToText(wire.Title),
    summary: wire.Summary === null || wire.Summary === undefined ? null : htmlToText(wire.Summary),
    contentHtml: wire.Content,
    publicationDate: wire.PublicationDate,
    updateDate: wire.UpdateDate,
    url: wire.Url,
    imageUrl: wire.ImageUrl,
    authorName: wire.Author?.Name ?? null,
    companyName: wire.Company?.Name ?? null,
    categories: names(wire.Categories),
    tags: names(wire.Tags),
  };
}
