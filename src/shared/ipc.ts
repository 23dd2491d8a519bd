/**
 * The one place that defines what the renderer may ask of the main process.
 * Every method takes at most one argument, validated at runtime by its schema here
 * on the main side (Electron IPC handler and web-mode HTTP handler alike).
 * Pushes (main → renderer) are listed in PUSH_EVENTS.
 */
import type { CalendarFeedInfo } from './calendar-feed.js';
import { z } from 'zod';
import { relayUrlSetting } from './relay-urls.js';
import type {
  AlertRecord,
  AlertRules,
  AppStatus,
  BackfillProgress,
  CacheInfo,
  Category,
  ConnectionTestResult,
  CredentialsInfo,
  DomainChange,
  EventDate,
  EventDetail,
  NativeNotification,
  Post,
  PostPage,
  SearchHit,
  Settings,
  TestAlertResult,
} from './domain.js';
import { ALERT_SURFACES } from './domain/alerts.js';
import {
  alertRulesInputSchema,
  culture,
  httpUrl,
  id,
  isoDate,
  settingsPatchSchema,
  settingsSchema,
  shortList,
  volatility,
} from './settings-schema.js';

export const eventDateQuerySchema = z.object({
  from: isoDate,
  to: isoDate,
  volatilities: z.array(volatility).max(4).optional(),
  countries: shortList.optional(),
  categories: shortList.optional(),
  text: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(20000).optional(),
});

/** What the renderer reports of its own failure (bounded: it goes to the core's log). */
export const rendererErrorSchema = z.object({
  kind: z.enum(['error', 'unhandledrejection', 'boundary']),
  message: z.string().max(2_000),
  stack: z.string().max(8_000).optional(),
  /** React's component stack (an error boundary's report). */
  componentStack: z.string().max(8_000).optional(),
  /** The screen whose boundary caught it. */
  screen: z.string().max(40).optional(),
});
export type RendererErrorReport = z.infer<typeof rendererErrorSchema>;

/** Inputs of every request method. `z.undefined()` = no argument. */
export const requestSchemas = {
  getStatus: z.undefined(),
  getSettings: z.undefined(),
  updateSettings: settingsPatchSchema.extend({ alertRules: alertRulesInputSchema.optional() }),
  getCredentials: z.undefined(),
  setCredentials: z.object({
    publicKey: z.string().trim().min(1).max(500),
    privateKey: z.string().trim().min(1).max(500),
    /** New service URLs, accepted only here (with the keys) while keys are stored. */
    serviceUrls: settingsSchema.shape.serviceUrls.optional(),
    /** While keys are stored: the stored private key, unless `privateKey` is that key. */
    currentPrivateKey: z.string().trim().min(1).max(500).optional(),
  }),
  /** While keys are stored: the stored private key (a session alone cannot remove them). */
  clearCredentials: z
    .object({ currentPrivateKey: z.string().trim().min(1).max(500).optional() })
    .optional(),
  testConnection: z.undefined(),
  setRelay: z.object({
    url: relayUrlSetting.nullable(),
    token: z.string().min(1).max(500).optional(),
  }),
  listEventDates: eventDateQuerySchema,
  nextRelease: z.object({ volatilities: z.array(volatility).max(4).optional() }).optional(),
  getEventDetail: z.object({ eventId: id }),
  listCategories: z.undefined(),
  setWatched: z.object({ eventId: id, watched: z.boolean() }),
  listPosts: z.object({
    culture: culture.optional(),
    page: z.number().int().min(1).max(100000),
    pageSize: z.number().int().min(1).max(200),
    unreadOnly: z.boolean().optional(),
    tag: z.string().trim().min(1).max(100).optional(),
  }),
  markAllPostsRead: z.object({ culture: culture.optional() }),
  getPost: z.object({ id, culture }),
  markPostRead: z.object({ id, culture }),
  searchPosts: z.object({
    query: z.string().min(1).max(200),
    culture: culture.optional(),
    limit: z.number().int().min(1).max(200).optional(),
  }),
  listAlerts: z.object({
    limit: z.number().int().min(1).max(1000).optional(),
    unreadOnly: z.boolean().optional(),
  }),
  markAlertsRead: z.object({ ids: z.array(z.number().int().positive()).max(10000).optional() }),
  getAlertRules: z.undefined(),
  setAlertRules: alertRulesInputSchema,
  pauseAlerts: z.object({ until: z.number().int().nonnegative().nullable() }),
  syncNow: z.undefined(),
  getCacheInfo: z.undefined(),
  clearCache: z.undefined(),
  getDiagnostics: z.undefined(),
  openExternal: z.object({ url: httpUrl }),
  /** Desk mode's webcal feed of watched events (src/main/desk/watchlist-sync.ts). */
  getCalendarFeed: z.undefined(),
  rotateCalendarFeed: z.undefined(),
  /** "Restart to update": the desktop app installs the downloaded update (no-op elsewhere). */
  installUpdate: z.undefined(),
  /** Settings → "Send test alert": through the real delivery path; what the OS did with it. */
  sendTestAlert: z.undefined(),
  /** The trader closed the in-app alert banner (the desktop window stops staying on top). */
  dismissAlertBanner: z.undefined(),
  /**
   * A surface showed a notification (its `deliveryId`): the toast rendered, the sound
   * started, the page's or the browser's own alert. The receipt's "shown" is this, never the
   * send; without one in time the host falls back (src/main/alerts/acknowledgements.ts).
   */
  alertShown: z.object({
    id: z.number().int().positive(),
    surface: z.enum(ALERT_SURFACES),
    at: z.number().int().nonnegative(),
  }),
  /** The renderer failed (an uncaught error, a rejection, a screen's error boundary): logged. */
  reportRendererError: rendererErrorSchema,
} as const;

export type RequestMethod = keyof typeof requestSchemas;
export type RequestInput<M extends RequestMethod> = z.infer<(typeof requestSchemas)[M]>;

/** What each request method answers. */
export interface ResponseTypes {
  getStatus: AppStatus;
  getSettings: Settings;
  updateSettings: Settings;
  getCredentials: CredentialsInfo;
  setCredentials: CredentialsInfo;
  clearCredentials: CredentialsInfo;
  testConnection: ConnectionTestResult;
  setRelay: CredentialsInfo;
  listEventDates: EventDate[];
  nextRelease: EventDate | null;
  getEventDetail: EventDetail;
  listCategories: Category[];
  setWatched: AlertRules;
  listPosts: PostPage;
  getPost: Post | null;
  markPostRead: null;
  markAllPostsRead: null;
  searchPosts: SearchHit[];
  listAlerts: AlertRecord[];
  markAlertsRead: null;
  getAlertRules: AlertRules;
  setAlertRules: AlertRules;
  pauseAlerts: AlertRules;
  syncNow: null;
  getCacheInfo: CacheInfo;
  clearCache: CacheInfo;
  getDiagnostics: string;
  openExternal: null;
  installUpdate: null;
  getCalendarFeed: CalendarFeedInfo;
  rotateCalendarFeed: CalendarFeedInfo;
  sendTestAlert: TestAlertResult;
  dismissAlertBanner: null;
  alertShown: null;
  reportRendererError: null;
}

/** The app's API as the renderer sees it, one async method per request. */
export type AppApi = {
  [M in RequestMethod]: undefined extends RequestInput<M>
    ? (input?: RequestInput<M>) => Promise<ResponseTypes[M]>
    : (input: RequestInput<M>) => Promise<ResponseTypes[M]>;
};

/** Pushes from the main process. */
export interface PushPayloads {
  changes: DomainChange[];
  alert: AlertRecord;
  status: AppStatus;
  backfill: BackfillProgress;
  /** An alert to show now (grouped, rate-limited, quiet-hours aware): toast, sound, browser. */
  notification: NativeNotification;
  /** The user clicked a native notification or a tray item: open this. */
  navigate: NativeNotification['target'] | { type: 'settings' };
  /** The desktop app's auto-update (never sent in web mode). */
  update: UpdateNotice;
  /** The OS did not show this notification: the window shows it as a banner (desktop only). */
  banner: NativeNotification;
  /**
   * No surface acknowledged this notification in time: the host's own fallback shows it
   * (Electron: the OS notification with sound and the taskbar's attention; web: the page's
   * alert outside React, or the browser's notification).
   */
  fallback: NativeNotification;
  /** Settings (alert rules included) after any change, so every open window follows. */
  settings: Settings;
  /** Alerts marked read (null: all), so every open window's history follows. */
  alertsRead: { ids: number[] | null };
}

/** Where the app's own update stands; the renderer shows "Restart to update" when ready. */
export type UpdateNotice =
  | { phase: 'idle' }
  | { phase: 'downloading'; version: string; percent: number }
  | {
      phase: 'ready';
      version: string;
      releaseName: string | null;
      /** Plain text (never HTML). */
      releaseNotes: string | null;
    };
export type PushEvent = keyof PushPayloads;
export {
  PUSH_EVENTS,
  IPC_REQUEST_CHANNEL,
  ipcPushChannel,
  WEB_API_PREFIX,
  WEB_EVENTS_PATH,
  WEB_LOGOUT_PATH,
  WEB_PAGE_KEY_HEADER,
} from './channels.js';

export function isRequestMethod(name: unknown): name is RequestMethod {
  return typeof name === 'string' && Object.hasOwn(requestSchemas, name);
}

/**
 * A validation failure a user (or developer) can read: each problem, then the field it is
 * at (z.prettifyError), on one line — the web host shows an error's first line only.
 */
export class InvalidRequestError extends Error {
  readonly issues: string;
  constructor(
    readonly method: string,
    error: z.ZodError,
  ) {
    const issues = z.prettifyError(error).replace(/\s*\n\s*/g, ' ');
    super(`Invalid request to ${method}: ${issues}`);
    this.name = 'InvalidRequestError';
    this.issues = issues;
  }
}

/** Validate a request's input against the contract; throws InvalidRequestError. */
export function parseRequest<M extends RequestMethod>(method: M, input: unknown): RequestInput<M> {
  const result = requestSchemas[method].safeParse(input);
  if (!result.success) {
    throw new InvalidRequestError(method, result.error);
  }
  return result.data as RequestInput<M>;
}

/** The error shape that crosses IPC/HTTP: a message for the user and a machine code. */
export interface ApiErrorBody {
  error: string;
  message: string;
}

/** What a request answers across IPC or HTTP: never a thrown Error object. */
export type RequestResult<T> = { ok: true; value: T } | { ok: false; error: ApiErrorBody };

/**
 * What src/preload exposes as `window.macrobell` (Electron), and what the renderer's
 * IPC bridge consumes. Exactly the contract, nothing else.
 */
export interface PreloadBridge {
  invoke<M extends RequestMethod>(
    method: M,
    input: unknown,
  ): Promise<RequestResult<ResponseTypes[M]>>;
  /** The payload as it crossed the process boundary: the renderer's bridge checks it. */
  on(event: PushEvent, listener: (payload: unknown) => void): () => void;
  readonly platform: string;
}
