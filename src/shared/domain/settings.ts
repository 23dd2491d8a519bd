/** The user's settings (settings.json) and their defaults. */
import { DEFAULT_ALERT_RULES, type AlertRules, type SoundLevel } from './alerts.js';
import { DEFAULT_CALENDAR_FILTERS, type CalendarFilters } from './calendar.js';
import { DEFAULT_NEWS_WINDOW, type NewsWindowSettings } from '../news-windows.js';
import { DEFAULT_SQUAWK, type SquawkSettings } from '../squawk-text.js';

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
  /** No-trading windows around releases (src/shared/news-windows.ts). */
  newsWindow: NewsWindowSettings;
  /** The desk squawk: prints and consensus read aloud (src/shared/squawk-text.ts). */
  squawk: SquawkSettings;
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
  newsWindow: DEFAULT_NEWS_WINDOW,
  squawk: DEFAULT_SQUAWK,
};
