/**
 * What each push of the contract carries, as a zod schema: the window checks every push
 * against these before a store sees it (a push crosses a process boundary as plain JSON).
 * Each schema is typed against `PushPayloads`, so a payload type and its schema cannot drift.
 * The renderer loads this module in a chunk of its own (zod stays out of the first render).
 */
import { z } from 'zod';
import { ALERT_SURFACES } from './domain/alerts.js';
import { calendarEventSchema, eventDateSchema, postSchema } from './domain-schemas.js';
import type { PushEvent, PushPayloads } from './ipc.js';
import { settingsSchema } from './settings-schema.js';

const nullableNumber = z.number().nullable();
const nullableString = z.string().nullable();
const changeSource = z.enum(['relay', 'poll', 'backfill', 'webhook', 'local']);

const domainChange = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('released'),
    eventDate: eventDateSchema,
    source: changeSource,
    print: z.object({ late: z.boolean() }).optional(),
    replaces: z.number().optional(),
  }),
  z.object({
    kind: z.literal('revised'),
    eventDate: eventDateSchema,
    previousRevised: nullableNumber,
    withPrint: z.boolean(),
    source: changeSource,
  }),
  z.object({
    kind: z.literal('corrected'),
    eventDate: eventDateSchema,
    previousActual: z.number(),
    source: changeSource,
    unconfirmed: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('rescheduled'),
    eventDate: eventDateSchema,
    fromDateUtc: z.string(),
    source: changeSource,
  }),
  z.object({
    kind: z.literal('eventDateUpdated'),
    eventDate: eventDateSchema,
    keys: z.array(z.string()),
    source: changeSource,
  }),
  z.object({ kind: z.literal('eventDateAdded'), eventDate: eventDateSchema, source: changeSource }),
  z.object({
    kind: z.literal('eventDateRemoved'),
    eventDateId: z.string(),
    eventId: z.string(),
    eventDate: eventDateSchema.nullable(),
    source: changeSource,
  }),
  z.object({ kind: z.literal('eventAdded'), event: calendarEventSchema, source: changeSource }),
  z.object({ kind: z.literal('postPublished'), post: postSchema, source: changeSource }),
  z.object({ kind: z.literal('postUpdated'), post: postSchema, source: changeSource }),
  z.object({
    kind: z.literal('postRemoved'),
    postId: z.string(),
    culture: z.string(),
    source: changeSource,
  }),
]);

const alertTarget = z.discriminatedUnion('type', [
  z.object({ type: z.literal('eventDate'), eventDateId: z.string(), eventId: z.string() }),
  z.object({ type: z.literal('post'), postId: z.string(), culture: z.string() }),
  z.object({ type: z.literal('alerts') }),
]);

const alertReceipt = z.object({
  path: changeSource,
  scheduledAt: nullableNumber,
  lastUpdatedAt: nullableNumber,
  printAt: nullableNumber,
  relayReceivedAt: nullableNumber,
  appliedAt: z.number(),
  shownAt: nullableNumber,
  shownBy: z.enum(ALERT_SURFACES).nullable().optional(),
  sentAt: nullableNumber.optional(),
  fallbackAt: nullableNumber.optional(),
});

const alertRecord = z.object({
  id: z.number(),
  kind: z.enum([
    'released',
    'corrected',
    'withdrawn',
    'revised',
    'rescheduled',
    'added',
    'removed',
    'reminder',
    'news',
    'group',
  ]),
  title: z.string(),
  body: z.string(),
  createdAt: z.number(),
  read: z.boolean(),
  target: alertTarget,
  late: z.boolean().optional(),
  receipt: alertReceipt.nullable().optional(),
});

const nativeNotification = z.object({
  title: z.string(),
  body: z.string(),
  target: alertTarget,
  alertIds: z.array(z.number()),
  silent: z.boolean(),
  volatility: z.enum(['NONE', 'LOW', 'MEDIUM', 'HIGH']).optional(),
  test: z.boolean().optional(),
  deliveryId: z.number().optional(),
});

const backfillProgress = z.object({
  running: z.boolean(),
  phase: z.string(),
  done: z.number(),
  total: z.number(),
});

const tokenState = z.enum(['none', 'valid', 'refreshing', 'error']);

const appStatus = z.object({
  demo: z.boolean(),
  connection: z.object({
    state: z.enum(['connecting', 'live', 'behind', 'late', 'reconnecting', 'apiDown', 'offline']),
    transport: z.enum(['relay', 'webhooks', 'polling']),
    reason: nullableString,
    since: z.number(),
  }),
  mode: z.enum(['relay', 'polling', 'offline']),
  online: z.boolean(),
  lastSyncAt: nullableNumber,
  badNotifications: z.number(),
  tokens: z.object({ calendar: tokenState, news: tokenState }),
  credentials: z.object({
    configured: z.boolean(),
    maskedPublicKey: nullableString,
    relayTokenConfigured: z.boolean(),
    keychainAvailable: z.boolean(),
    keychainError: nullableString,
  }),
  relay: z
    .object({
      url: z.string(),
      connected: z.boolean(),
      node: nullableString,
      lastEventId: nullableString,
      lastEventAt: nullableNumber,
      lagMs: nullableNumber,
    })
    .nullable(),
  backfill: backfillProgress.nullable(),
  lastError: z.object({ source: z.string(), message: z.string(), at: z.number() }).nullable(),
  alertsPausedUntil: nullableNumber,
  unreadAlerts: z.number(),
  feedLatency: z.array(
    z.object({
      path: changeSource,
      count: z.number(),
      unacknowledged: z.number().optional(),
      p50Ms: z.number(),
      p99Ms: z.number(),
    }),
  ),
});

const updateNotice = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('idle') }),
  z.object({ phase: z.literal('downloading'), version: z.string(), percent: z.number() }),
  z.object({
    phase: z.literal('ready'),
    version: z.string(),
    releaseName: nullableString,
    releaseNotes: nullableString,
  }),
]);

/** One schema per push; the mapped type makes a missing push or a drifted payload a type error. */
export const pushSchemas: { readonly [E in PushEvent]: z.ZodType<PushPayloads[E]> } = {
  changes: z.array(domainChange),
  alert: alertRecord,
  status: appStatus,
  backfill: backfillProgress,
  notification: nativeNotification,
  navigate: z.union([alertTarget, z.object({ type: z.literal('settings') })]),
  update: updateNotice,
  banner: nativeNotification,
  fallback: nativeNotification,
  settings: settingsSchema,
  alertsRead: z.object({ ids: z.array(z.number()).nullable() }),
};

export type PushCheck<E extends PushEvent> =
  { ok: true; payload: PushPayloads[E] } | { ok: false; problem: string };

/** A push's payload checked against its schema; the problem on one line when it does not fit. */
export function checkPush<E extends PushEvent>(name: E, payload: unknown): PushCheck<E> {
  const result = pushSchemas[name].safeParse(payload);
  if (result.success) return { ok: true, payload: result.data };
  return {
    ok: false,
    problem: `dropped a malformed "${name}" push: ${z.prettifyError(result.error).replace(/\s*\n\s*/g, ' ')}`,
  };
}
