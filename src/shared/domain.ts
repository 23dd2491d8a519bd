/**
 * Domain types shared by every part of Macrobell. Pure: no I/O, no Node, no DOM.
 * Wire shapes follow docs/service-api.md; the app keeps the raw JSON
 * of every record beside these typed views, so unknown fields are never lost.
 */

export const VOLATILITIES = ['NONE', 'LOW', 'MEDIUM', 'HIGH'] as const;
export type Volatility = (typeof VOLATILITIES)[number];

export const POTENCIES = ['ZERO', 'K', 'M', 'B', 'T'] as const;
export type Potency = (typeof POTENCIES)[number];

export type Scope = 'calendar' | 'news';

/** One dated occurrence of an event, as the calendar API returns it (camelCase). */
export interface EventDate {
  id: string;
  eventId: string;
  dateUtc: string;
  periodDateUtc: string | null;
  periodType: string | null;
  actual: number | null;
  revised: number | null;
  consensus: number | null;
  ratioDeviation: number | null;
  previous: number | null;
  isBetterThanExpected: boolean | null;
  name: string;
  countryCode: string;
  currencyCode: string;
  unit: string | null;
  potency: Potency | string | null;
  volatility: Volatility | string;
  isAllDay: boolean;
  isTentative: boolean;
  isPreliminary: boolean;
  isReport: boolean;
  isSpeech: boolean;
  /** Unix seconds. */
  lastUpdated: number;
}

/** The properties common to all occurrences of an indicator. */
export interface CalendarEvent {
  id: string;
  name: string;
  description: string | null;
  countryCode: string;
  currencyCode: string;
  categoryId: string | null;
  periodType: string | null;
  unit: string | null;
  potency: Potency | string | null;
  volatility: Volatility | string;
  isSpeech: boolean;
  isReport: boolean;
}

export interface Category {
  id: string;
  name: string;
}

export interface Asset {
  code: string;
  name: string;
  type: string;
}

/** A news post, normalised from the v4 API's PascalCase. */
export interface Post {
  id: string;
  culture: string;
  title: string;
  summary: string | null;
  /** Third-party HTML: sanitise before showing. */
  contentHtml: string;
  /** ISO-8601 UTC. */
  publicationDate: string;
  updateDate: string | null;
  url: string | null;
  imageUrl: string | null;
  authorName: string | null;
  companyName: string | null;
  categories: string[];
  tags: string[];
}

/** Where a change came from. */
export type ChangeSource = 'relay' | 'poll' | 'backfill' | 'webhook' | 'local';

/**
 * A change applied to the cache, in terms a trader cares about. Emitted by the sync
 * engine for the alerts engine and the UI, whatever the source of the change.
 */
export type DomainChange =
  | { kind: 'released'; eventDate: EventDate; source: ChangeSource }
  | { kind: 'revised'; eventDate: EventDate; previousRevised: number | null; source: ChangeSource }
  /** The actual changed after the print (the service fixed a wrong figure). */
  | { kind: 'corrected'; eventDate: EventDate; previousActual: number; source: ChangeSource }
  | { kind: 'rescheduled'; eventDate: EventDate; fromDateUtc: string; source: ChangeSource }
  | { kind: 'eventDateUpdated'; eventDate: EventDate; keys: string[]; source: ChangeSource }
  | { kind: 'eventDateAdded'; eventDate: EventDate; source: ChangeSource }
  | {
      kind: 'eventDateRemoved';
      eventDateId: string;
      eventId: string;
      eventDate: EventDate | null;
      source: ChangeSource;
    }
  | { kind: 'eventAdded'; event: CalendarEvent; source: ChangeSource }
  | { kind: 'postPublished'; post: Post; source: ChangeSource }
  | { kind: 'postUpdated'; post: Post; source: ChangeSource }
  | { kind: 'postRemoved'; postId: string; culture: string; source: ChangeSource };

/** The change kinds a user can choose to be alerted about. */
export const ALERTABLE_CHANGES = [
  'released',
  'revised',
  'rescheduled',
  'added',
  'removed',
] as const;
export type AlertableChange = (typeof ALERTABLE_CHANGES)[number];

export interface QuietHours {
  enabled: boolean;
  /** "HH:mm" in `timeZone`. */
  start: string;
  end: string;
  /** IANA zone, or "system". */
  timeZone: string;
}

export interface AlertRules {
  /** Occurrences at or above this volatility alert (watched events always alert). */
  minVolatility: Volatility;
  /** Empty means any country. FXStreet codes: US, UK, EMU, DE, JP, … */
  countries: string[];
  /** Empty means any currency. */
  currencies: string[];
  watchedEventIds: string[];
  changes: Record<AlertableChange, boolean>;
  newsEnabled: boolean;
  /** A post alerts when its title or summary contains one of these (case-insensitive). */
  newsKeywords: string[];
  /** A post alerts when it carries one of these category names. */
  newsCategories: string[];
  quietHours: QuietHours;
  /** Minutes before a watched release to remind; 0 disables reminders. */
  reminderMinutes: number;
  /** Unix ms until which alerts are paused, or null. */
  pausedUntil: number | null;
}

export const DEFAULT_ALERT_RULES: AlertRules = {
  minVolatility: 'HIGH',
  countries: [],
  currencies: [],
  watchedEventIds: [],
  changes: { released: true, revised: true, rescheduled: true, added: false, removed: false },
  newsEnabled: false,
  newsKeywords: [],
  newsCategories: [],
  quietHours: { enabled: false, start: '22:00', end: '07:00', timeZone: 'system' },
  reminderMinutes: 5,
  pausedUntil: null,
};

export type AlertKind =
  | 'released'
  | 'corrected'
  | 'revised'
  | 'rescheduled'
  | 'added'
  | 'removed'
  | 'reminder'
  | 'news'
  | 'group';

/** What a click on an alert opens. */
export type AlertTarget =
  | { type: 'eventDate'; eventDateId: string; eventId: string }
  | { type: 'post'; postId: string; culture: string }
  | { type: 'alerts' };

/** One alert in the history the UI shows. */
export interface AlertRecord {
  id: number;
  kind: AlertKind;
  title: string;
  body: string;
  /** Unix ms. */
  createdAt: number;
  read: boolean;
  target: AlertTarget;
}

/** A notification to show natively (possibly grouping several alerts). */
export interface NativeNotification {
  title: string;
  body: string;
  target: AlertTarget;
  alertIds: number[];
  /** True when quiet hours say: record it, but make no sound. */
  silent: boolean;
  /** The highest impact among the releases it carries; absent for news only. */
  volatility?: Volatility;
}

/** Impact levels that can have an alert sound (NONE plays as LOW). */
export const SOUND_LEVELS = ['HIGH', 'MEDIUM', 'LOW'] as const;
export type SoundLevel = (typeof SOUND_LEVELS)[number];

export interface CalendarFilters {
  volatilities: Volatility[];
  countries: string[];
  categories: string[];
  text: string;
}

export const DEFAULT_CALENDAR_FILTERS: CalendarFilters = {
  volatilities: [],
  countries: [],
  categories: [],
  text: '',
};

export interface ServiceUrls {
  auth: string;
  calendar: string;
  news: string;
}

export const REAL_SERVICE_URLS: ServiceUrls = {
  auth: 'https://authorization.fxstreet.com',
  calendar: 'https://calendar-api.fxstreet.com',
  news: 'https://subscriptions.fxstreet.com',
};

export interface Settings {
  /** "keys": this machine holds the provider keys; "desk": tokens come from the desk relay. */
  connection: 'keys' | 'desk';
  serviceUrls: ServiceUrls;
  /** Calendar language segment. */
  language: string;
  /** News cultures to sync, e.g. ["en-US"]. */
  cultures: string[];
  /** IANA zone or "system". */
  timeZone: string;
  hourCycle: 'h12' | 'h23';
  theme: 'system' | 'light' | 'dark';
  /**
   * Relay base URL, or several separated by commas (an HA pair, tried in order); the
   * bearer token lives in the keychain. Null = polling.
   */
  relayUrl: string | null;
  polling: {
    baseIntervalSec: number;
    burstIntervalSec: number;
    burstLeadSec: number;
    burstTimeoutSec: number;
  };
  backfill: { daysBack: number; daysAhead: number };
  calendarFilters: CalendarFilters;
  allowRemoteImages: boolean;
  startAtLogin: boolean;
  alertRules: AlertRules;
  /** In-app alert sound per impact level (news alerts play the medium one). */
  sounds: Record<SoundLevel, boolean>;
  /** Web mode: also show the browser's notifications (once the browser allows them). */
  browserNotifications: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  connection: 'keys',
  serviceUrls: REAL_SERVICE_URLS,
  language: 'en',
  cultures: ['en-US'],
  timeZone: 'system',
  hourCycle: 'h23',
  theme: 'system',
  relayUrl: null,
  polling: { baseIntervalSec: 300, burstIntervalSec: 2, burstLeadSec: 10, burstTimeoutSec: 180 },
  backfill: { daysBack: 7, daysAhead: 14 },
  calendarFilters: DEFAULT_CALENDAR_FILTERS,
  allowRemoteImages: false,
  startAtLogin: false,
  alertRules: DEFAULT_ALERT_RULES,
  sounds: { HIGH: true, MEDIUM: true, LOW: false },
  browserNotifications: false,
};

export type TokenState = 'none' | 'valid' | 'refreshing' | 'error';
export type ConnectionMode = 'relay' | 'polling' | 'offline';

/**
 * The one connection state every surface shows (banner, status bar, tray, status API):
 * - `connecting`: starting, nothing has answered yet;
 * - `live`: the service answers and the live transport works;
 * - `late`: the service answers but webhooks are missing: the safety net is carrying it;
 * - `reconnecting`: the relay stream is down and being re-established (the safety net runs);
 * - `offline`: the service cannot be reached (or refuses our keys); cached data shown.
 */
export type ConnectionState = 'connecting' | 'live' | 'late' | 'reconnecting' | 'offline';
/** How live updates arrive: the relay's stream, the service's webhooks direct (demo), or polls. */
export type LiveTransport = 'relay' | 'webhooks' | 'polling';

export interface ConnectionInfo {
  state: ConnectionState;
  transport: LiveTransport;
  /** One sentence for people: why the state is what it is (null when live). */
  reason: string | null;
  /** Unix ms: when this state began. */
  since: number;
}

export interface BackfillProgress {
  running: boolean;
  phase: string;
  done: number;
  total: number;
}

export interface StatusError {
  source: string;
  message: string;
  at: number;
}

export interface AppStatus {
  demo: boolean;
  /** The one source of truth for what the connection is doing; `mode`/`online` derive from it. */
  connection: ConnectionInfo;
  mode: ConnectionMode;
  online: boolean;
  /** Unix ms: the last time the service answered (any request). */
  lastSyncAt: number | null;
  /** Notifications that could not be applied (malformed): skipped, logged and counted. */
  badNotifications: number;
  tokens: Record<Scope, TokenState>;
  credentials: CredentialsInfo;
  relay: {
    url: string;
    connected: boolean;
    /** Which relay node of the list the stream is on now (null while connecting). */
    node: string | null;
    lastEventId: string | null;
    lastEventAt: number | null;
    lagMs: number | null;
  } | null;
  backfill: BackfillProgress | null;
  lastError: StatusError | null;
  alertsPausedUntil: number | null;
  unreadAlerts: number;
}

/** What the renderer may know about stored keys: never the keys themselves. */
export interface CredentialsInfo {
  configured: boolean;
  /** e.g. "demo…blic" — enough to recognise, useless to steal. */
  maskedPublicKey: string | null;
  relayTokenConfigured: boolean;
  /** False when the OS keychain cannot be reached. */
  keychainAvailable: boolean;
  keychainError: string | null;
}

export interface ConnectionTestResult {
  ok: boolean;
  scopes: Record<Scope, { ok: boolean; message: string }>;
}

export interface EventDetail {
  event: CalendarEvent | null;
  upcoming: EventDate[];
  history: EventDate[];
  watched: boolean;
}

export interface PostSummary {
  id: string;
  culture: string;
  title: string;
  summary: string | null;
  publicationDate: string;
  authorName: string | null;
  read: boolean;
}

export interface PostPage {
  items: PostSummary[];
  page: number;
  pageSize: number;
  total: number;
  /** Unread posts of the culture (whatever the view's filters). */
  unread: number;
}

export interface SearchHit {
  id: string;
  culture: string;
  title: string;
  /** Snippet with matches wrapped in <mark>…</mark>; everything else HTML-escaped. */
  snippetHtml: string;
  publicationDate: string;
}

export interface CacheInfo {
  dataDir: string;
  databaseBytes: number;
  eventDates: number;
  posts: number;
}
