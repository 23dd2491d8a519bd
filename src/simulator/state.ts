/** The simulator's world: events, occurrences, posts, webhooks, deliveries and faults. */
import type { EventModel, SimEventDate } from './data/calendar.js';
import type { SimPost } from './data/news.js';

export type Api = 'calendar' | 'news';

export interface Webhook {
  id: string;
  url: string;
  createdAt: string;
  lastSentAt: string | null;
}

export interface DeliveryRecord {
  id: number;
  webhookId: string;
  api: Api;
  url: string;
  type: string;
  payload: unknown;
  attempt: number;
  status: number | null;
  ok: boolean;
  at: string;
  error?: string;
}

export interface Faults {
  token?: { status: number; error: string; count?: number };
  api?: { status: number; retryAfterSec?: number; count?: number };
  latencyMs?: number;
  tokenLifetimeSec?: number;
  deliveries?: { drop?: number; duplicate?: number };
}

export interface SimulatorState {
  events: Map<string, EventModel>;
  eventDates: Map<string, SimEventDate>;
  /**
   * Each demo release's time on the agency's schedule, by id: its values are drawn for it,
   * so a fast demo (which shows it sooner) prints what a demo at speed 1 prints.
   */
  scheduledAt: Map<string, number>;
  /** Keyed by `${culture}:${id}`. */
  posts: Map<string, SimPost>;
  webhooks: Record<Api, Webhook[]>;
  deliveries: DeliveryRecord[];
  faults: Faults;
  /** Token requests seen (tests count single-flight with it). */
  tokenRequests: number;
  /** Tokens issued (new or reused) per scope: what a test of one scope's exchanges counts. */
  tokensIssued: Record<'calendar' | 'news', number>;
  apiRequests: number;
  /** Reads of one event date by id (tests wait for an app's confirming read with it). */
  eventDateReads: Map<string, number>;
}

export function postKey(culture: string, id: string): string {
  return `${culture}:${id}`;
}

export function createState(): SimulatorState {
  return {
    events: new Map(),
    eventDates: new Map(),
    scheduledAt: new Map(),
    posts: new Map(),
    webhooks: { calendar: [], news: [] },
    deliveries: [],
    faults: {},
    tokenRequests: 0,
    tokensIssued: { calendar: 0, news: 0 },
    apiRequests: 0,
    eventDateReads: new Map(),
  };
}
