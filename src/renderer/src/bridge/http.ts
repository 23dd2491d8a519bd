/**
 * Web mode: `POST /api/<method>` and pushes over `EventSource('/api/events')`. Every call
 * carries the page key the host handed over in the login redirect's fragment (kept in
 * this origin's storage): the session cookie alone is refused.
 */
// Names from the dependency-free module: importing values from shared/ipc would bundle zod
// and build every request schema at start-up, none of which the renderer uses.
import {
  PUSH_EVENTS,
  WEB_API_PREFIX,
  WEB_EVENTS_PATH,
  WEB_LOGOUT_PATH,
  WEB_PAGE_KEY_HEADER,
} from '../../../shared/channels.js';
import type { PushEvent, RequestResult } from '../../../shared/ipc.js';
import { reportBadPush } from '../lib/error-reports.js';
import { apiFrom, BridgeError, type Bridge, type Connection } from './bridge.js';
import { createPushGate } from './push-check.js';

/** The part of EventSource the bridge uses, so tests can pass a Node implementation. */
export interface EventSourceLike {
  onopen: ((e: Event) => void) | null;
  onerror: ((e: Event) => void) | null;
  readonly readyState: number;
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void): void;
  close(): void;
}

export interface HttpBridgeOptions {
  /** Origin to prefix to the API paths; same-origin (empty) in the app. */
  base?: string;
  /** Opens the push stream; the browser's EventSource by default. */
  openEvents?: (url: string) => EventSourceLike;
  /** Delay before re-opening a push stream the browser gave up on (ms). */
  reopenDelayMs?: number;
  /** The session's page key; by default from the address's `#key=` or this origin's storage. */
  pageKey?: string | null;
  /** Told once of each push dropped as malformed; the renderer's error report by default. */
  onBadPush?: (problem: string) => void;
}

const KEY_STORAGE = 'macrobell.pageKey';

/** The key from the login redirect's fragment (then removed from the address), else storage. */
function browserPageKey(): string | null {
  if (typeof window === 'undefined') return null;
  const m = /^#key=([\w-]+)$/.exec(window.location.hash);
  if (m) {
    window.localStorage.setItem(KEY_STORAGE, m[1] as string);
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  return window.localStorage.getItem(KEY_STORAGE);
}

/** End this browser's session (the host forgets it and clears the cookie). */
export async function logoutWeb(base = ''): Promise<void> {
  const key = typeof window === 'undefined' ? null : window.localStorage.getItem(KEY_STORAGE);
  await fetch(`${base}${WEB_LOGOUT_PATH}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: key ? { [WEB_PAGE_KEY_HEADER]: key } : {},
  });
  if (typeof window !== 'undefined') window.localStorage.removeItem(KEY_STORAGE);
}

const CLOSED = 2;

/** The host's answer to one API call: its value, or its error as a BridgeError. */
async function answerOf(res: Response): Promise<unknown> {
  const body = (await res.json().catch(() => null)) as RequestResult<unknown> | null;
  if (body && typeof body === 'object' && 'ok' in body) {
    if (body.ok) return body.value;
    throw new BridgeError(body.error.error, body.error.message);
  }
  if (res.status === 401 || res.status === 403)
    throw new BridgeError(
      'unauthorized',
      'This browser session has expired or was logged out: press Enter where `npm run web` runs and open the new link.',
    );
  throw new BridgeError('bad_response', `Macrobell answered HTTP ${res.status}.`);
}

/**
 * The stream's query: the page key (EventSource sends no headers), and the last push seen
 * so a stream opened anew resumes after it (the browser's own retries send `Last-Event-ID`).
 */
function streamQuery(pageKey: string | null, lastEventId: string): string {
  const query = new URLSearchParams();
  if (pageKey) query.set('key', pageKey);
  if (lastEventId) query.set('lastEventId', lastEventId);
  return query.size > 0 ? `?${query}` : '';
}

/** Each push of a stream to `push` (with its id), and the host's `resync` to `resync`. */
function relayPushes(
  source: EventSourceLike,
  to: { push(name: PushEvent, payload: unknown, id: string): void; resync(): void },
): void {
  for (const name of PUSH_EVENTS) {
    source.addEventListener(name, (e) => {
      let payload: unknown;
      try {
        payload = JSON.parse(e.data);
      } catch {
        payload = undefined; // garbled JSON: dropped and reported by the push check
      }
      to.push(name, payload, e.lastEventId);
    });
  }
  source.addEventListener('resync', () => to.resync());
}

export function createHttpBridge(options: HttpBridgeOptions = {}): Bridge & { close(): void } {
  const base = options.base ?? '';
  const openEvents =
    options.openEvents ?? ((url: string) => new EventSource(url) as unknown as EventSourceLike);
  const reopenDelayMs = options.reopenDelayMs ?? 5000;
  const pageKey = options.pageKey !== undefined ? options.pageKey : browserPageKey();
  const keyHeader: Record<string, string> = pageKey ? { [WEB_PAGE_KEY_HEADER]: pageKey } : {};
  const listeners = new Map<PushEvent, Set<(p: unknown) => void>>();
  const checkPush = createPushGate(options.onBadPush ?? reportBadPush);
  const connListeners = new Set<(c: Connection) => void>();
  const resyncListeners = new Set<() => void>();
  /** The last push's id: a new stream resumes after it (the browser's own retries send it too). */
  let lastEventId = '';
  let connection: Connection = 'online';
  let closed = false;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  const setConnection = (c: Connection) => {
    if (c === connection) return;
    connection = c;
    connListeners.forEach((l) => l(c));
  };

  let source: EventSourceLike;
  const open = () => {
    source = openEvents(`${base}${WEB_EVENTS_PATH}${streamQuery(pageKey, lastEventId)}`);
    source.onopen = () => setConnection('online');
    source.onerror = () => {
      setConnection('offline');
      // The browser retries by itself unless the host answered with an error status (then the
      // stream is closed for good): re-open it after a pause so a restarted host is found again.
      if (source.readyState === CLOSED && !closed && reopenTimer === undefined)
        reopenTimer = setTimeout(() => {
          reopenTimer = undefined;
          if (!closed) open();
        }, reopenDelayMs);
    };
    relayPushes(source, {
      push(name, payload, id) {
        if (id) lastEventId = id;
        checkPush(name, payload, (checked) => listeners.get(name)?.forEach((l) => l(checked)));
      },
      resync: () => resyncListeners.forEach((l) => l()),
    });
  };
  open();

  return {
    kind: 'http',
    api: apiFrom(async (method, input) => {
      let res: Response;
      try {
        res = await fetch(`${base}${WEB_API_PREFIX}${method}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', ...keyHeader },
          body: JSON.stringify(input ?? null),
        });
      } catch {
        setConnection('offline');
        throw new BridgeError('offline', 'Macrobell is not reachable.');
      }
      setConnection('online');
      return answerOf(res);
    }),
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (p: unknown) => void);
      return () => set.delete(listener as (p: unknown) => void);
    },
    onConnection(listener) {
      connListeners.add(listener);
      return () => connListeners.delete(listener);
    },
    onResync(listener) {
      resyncListeners.add(listener);
      return () => resyncListeners.delete(listener);
    },
    close() {
      closed = true;
      clearTimeout(reopenTimer);
      source.close();
    },
  };
}
