/** Changes to the cache in a trader's terms, the alert rules, and the alerts they make. */
import type { CalendarEvent, EventDate, Volatility } from './calendar.js';
import type { Post } from './news.js';

/** Where a change came from. */
export type ChangeSource = 'relay' | 'poll' | 'backfill' | 'webhook' | 'local';

/**
 * A change applied to the cache, in terms a trader cares about. Emitted by the sync
 * engine for the alerts engine and the UI, whatever the source of the change.
 */
export type DomainChange =
  | {
      kind: 'released';
      eventDate: EventDate;
      source: ChangeSource;
      /**
       * Set when the alert decision calls this print news (alerts/decide.ts `newPrint`);
       * absent for history (a detail's year of prints, a backfill): never spoken as news.
       */
      print?: { late: boolean };
      /**
       * The figure a notification brought that the service never confirmed, now replaced by
       * this one: its alert is replaced in place by this print's (one alert, the real number).
       */
      replaces?: number;
    }
  /**
   * The previous period's figure was revised (`revised` set or changed; `previous` keeps
   * the figure as first published). `withPrint`: it came with this release's print, as
   * agencies publish revisions.
   */
  | {
      kind: 'revised';
      eventDate: EventDate;
      previousRevised: number | null;
      withPrint: boolean;
      source: ChangeSource;
    }
  /** The actual changed after the print (the service fixed a wrong figure). */
  | {
      kind: 'corrected';
      eventDate: EventDate;
      previousActual: number;
      source: ChangeSource;
      /**
       * `previousActual` came in a notification the service never confirmed, and the service
       * holds no print: the alert it raised is withdrawn in place, never "corrected".
       */
      unconfirmed?: boolean;
    }
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
  // a revision of the previous period's figure (off by default: it rides in the print's text)
  'revised',
  // a printed figure the service fixed
  'corrected',
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
  /**
   * A print first seen this many minutes or more after it happened (an outage, a wake
   * from sleep, lost webhooks) alerts as a "late print": in the history, without sound.
   */
  latePrintMinutes: number;
}

export const DEFAULT_ALERT_RULES: AlertRules = {
  minVolatility: 'HIGH',
  countries: [],
  currencies: [],
  watchedEventIds: [],
  changes: {
    released: true,
    revised: false,
    corrected: true,
    rescheduled: true,
    added: false,
    removed: false,
  },
  newsEnabled: false,
  newsKeywords: [],
  newsCategories: [],
  quietHours: { enabled: false, start: '22:00', end: '07:00', timeZone: 'system' },
  reminderMinutes: 5,
  pausedUntil: null,
  latePrintMinutes: 15,
};

export type AlertKind =
  | 'released'
  | 'corrected'
  /** A print alerted from a notification the service's read then did not hold. */
  | 'withdrawn'
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
  /** A print first seen after the late window: recorded and shown, but without sound. */
  late?: boolean;
  /** How the alert got here and how long each hop took (releases only). */
  receipt?: AlertReceipt | null;
}

/** The hops of one alert, each in unix ms (null when that hop does not apply or is unknown). */
export interface AlertReceipt {
  /** The path that brought the change in (`relay`: a webhook via the relay; `webhook`: demo webhooks; `poll`: the safety net or polling; `backfill`). */
  path: ChangeSource;
  /** The release's scheduled time. */
  scheduledAt: number | null;
  /** When the service stamped the change (`lastUpdated`, whole seconds). */
  lastUpdatedAt: number | null;
  /** The print the delay is measured from: the scheduled time, or the stamp when later. */
  printAt: number | null;
  /** When the relay stored the webhook (relay path only). */
  relayReceivedAt: number | null;
  /** When the app applied the change (the alert was recorded in the same transaction). */
  appliedAt: number;
  /**
   * When a surface the trader sees or hears first acknowledged it (null: none did — the
   * window never rendered it, or paused). Receipts written before acknowledgements carry
   * the time the notification went out here, and no `shownBy`.
   */
  shownAt: number | null;
  /** Which surface acknowledged it first (absent on receipts older than acknowledgements). */
  shownBy?: AlertSurface | null;
  /** When the notification went out to the hosts (absent on older receipts). */
  sentAt?: number | null;
  /** When no surface had acknowledged it in time and the host's fallback was fired. */
  fallbackAt?: number | null;
}

/**
 * Where an alert reached the trader, as the surface itself reports it (`alertShown`): the
 * window's toast, its sound or its banner, the web page's own alert outside React, the browser's or the
 * OS's notification.
 */
export const ALERT_SURFACES = [
  'toast',
  'sound',
  'banner',
  'page-alert',
  'browser-notification',
  'native-notification',
] as const;
export type AlertSurface = (typeof ALERT_SURFACES)[number];

/** A surface acknowledging a notification it showed (`id`: the notification's `deliveryId`). */
export interface AlertShown {
  id: number;
  surface: AlertSurface;
  /** Unix ms, by the surface's clock (the core keeps it between sending and now). */
  at: number;
}

/** Print → alert over the last day, by path (Settings → Live updates). */
export interface FeedLatency {
  path: ChangeSource;
  /** Alerts a surface acknowledged (the percentiles are theirs). */
  count: number;
  /** Alerts sent that no surface acknowledged: not counted as shown. */
  unacknowledged?: number;
  p50Ms: number;
  p99Ms: number;
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
  /** "Send test alert" from Settings: nothing printed, nothing recorded. */
  test?: boolean;
  /**
   * Set by the core as it sends the notification: the id a surface acknowledges it with
   * (`alertShown`). Absent on the copies the renderer makes itself.
   */
  deliveryId?: number;
}

/** Impact levels that can have an alert sound (NONE plays as LOW). */
export const SOUND_LEVELS = ['HIGH', 'MEDIUM', 'LOW'] as const;

export type SoundLevel = (typeof SOUND_LEVELS)[number];
