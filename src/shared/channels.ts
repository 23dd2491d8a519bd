/**
 * Channel names and push event names, kept free of runtime dependencies (the one import is
 * a type, erased) so the sandboxed preload can import them without bundling the validation
 * library.
 */
import type { PushPayloads } from './ipc.js';

/**
 * Every push, once: the keys of an object typed against the contract's PushPayloads, so a
 * push missing, unknown or listed twice does not compile (an object literal cannot repeat
 * a key). Hosts and the mode switch forward exactly this list.
 */
const PUSH_EVENT_KEYS = {
  changes: true,
  alert: true,
  status: true,
  backfill: true,
  navigate: true,
  notification: true,
  update: true,
  banner: true,
  fallback: true,
  settings: true,
  alertsRead: true,
} as const satisfies { readonly [E in keyof PushPayloads]: true };
export type PushEventName = keyof PushPayloads;
export const PUSH_EVENTS = Object.freeze(Object.keys(PUSH_EVENT_KEYS) as PushEventName[]);

/** Electron channel names, derived so they are defined once. */
export const IPC_REQUEST_CHANNEL = 'macrobell:request';
export const ipcPushChannel = (event: PushEventName): string => `macrobell:push:${event}`;

/** Web mode: `POST /api/<method>` with the JSON input; pushes on `GET /api/events` (SSE). */
export const WEB_API_PREFIX = '/api/';
export const WEB_EVENTS_PATH = '/api/events';
/** Web mode: ends the browser's session (POST). */
export const WEB_LOGOUT_PATH = '/api/logout';
/** Web mode: the header carrying the page's session key (the cookie alone is refused). */
export const WEB_PAGE_KEY_HEADER = 'x-macrobell-key';
