/**
 * Channel names and push event names, kept free of dependencies so the sandboxed preload
 * can import them without bundling the validation library.
 */
export const PUSH_EVENTS = [
  'changes',
  'alert',
  'status',
  'backfill',
  'navigate',
  'notification',
  'update',
  'banner',
  'settings',
  'alertsRead',
] as const;
export type PushEventName = (typeof PUSH_EVENTS)[number];

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
