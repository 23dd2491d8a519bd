/**
 * The webcal feed's wire contract between the app and the desk relay: the watch list the
 * app uploads (`PUT /watchlist`) and the feed URL the relay hands out
 * (`GET|POST /calendar/feed-url`). Pure, so both sides validate with the same rules.
 */
import { z } from 'zod';

/** The service's ids are GUIDs (`891ff107-c21f-4952-b749-6d8c17944f60`). */
export const SERVICE_ID = /^[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$/;
export const WATCHLIST_MAX = 500;

export const isServiceId = (id: string): boolean => SERVICE_ID.test(id);

export const watchlistBodySchema = z.object(
  {
    eventIds: z
      .array(
        z
          .string({ error: 'each event id must be a string' })
          .regex(
            SERVICE_ID,
            'not an event id of the service (a GUID such as 891ff107-c21f-4952-b749-6d8c17944f60)',
          ),
        { error: 'eventIds must be an array of event ids' },
      )
      .max(WATCHLIST_MAX, `at most ${WATCHLIST_MAX} watched events`),
  },
  { error: 'send a JSON object {"eventIds": [...]}' },
);

export const feedUrlSchema = z.object({
  url: z.url({ protocol: /^https?$/ }),
  webcal: z.string().regex(/^webcal:\/\//),
  createdAt: z.number(),
});

/** Where the upload of the watch list to the desk relay stands (Settings shows it). */
export interface WatchlistSyncState {
  /** Watched events the relay's feed can carry (the service's ids). */
  count: number;
  /** A change not uploaded yet (waiting to send, or to retry). */
  pending: boolean;
  syncedAt: number | null;
  /** The last upload's failure, in words; null once an upload succeeds. */
  error: string | null;
}

/** Settings → Calendar feed: only desk mode has one. */
export type CalendarFeedInfo =
  | { desk: false; message: string }
  | {
      desk: true;
      url: string | null;
      webcal: string | null;
      /** Why the relay gave no URL (unreachable, no keys on the relay…). */
      error: string | null;
      watchlist: WatchlistSyncState;
    };
