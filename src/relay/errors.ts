/**
 * Every error the relay answers, listed once (fastify's lib/errors.js is the model): its
 * snake_case code, HTTP status, message and headers. Routes throw these (the relay's
 * handler answers them as `{error, message}`, no-store) or, on the hot path, return them.
 */
import { ReplyError } from '../node/http/server/reply-error.js';

/** A relay answer; `drainFirst`: sent only once the request body is read and dropped (drain.ts). */
export class RelayError extends ReplyError {
  drainFirst = false;

  /** Answer after the body is gone, so a client still sending sees the answer, not a reset. */
  afterDrain(): this {
    this.drainFirst = true;
    return this;
  }
}

type Message<A extends unknown[]> = string | ((...args: A) => string);

/** One catalogue entry: calling it makes a fresh error to throw. */
function entry<A extends unknown[] = []>(
  status: number,
  code: string,
  message: Message<A>,
  headers: Record<string, string> = {},
): (...args: A) => RelayError {
  return (...args: A) =>
    new RelayError(status, code, typeof message === 'string' ? message : message(...args), {
      ...headers,
    });
}

const RETRY_SOON = { 'retry-after': '1' };
const NO_KEYS_HINT =
  'Set MACROBELL_PUBLIC_KEY and MACROBELL_PRIVATE_KEY (or run `relay keys set`) on the relay.';

export const RelayErrors = {
  // Routing (any path)
  NOT_FOUND: entry(404, 'not_found', 'Not found'),
  /** `allow` as the header lists it (`GET, PUT`); `said` as the message says it. */
  METHOD_NOT_ALLOWED: (allow: string, said = allow) =>
    new RelayError(405, 'method_not_allowed', `Use ${said}`, { allow }),
  BACKSLASH_IN_PATH: entry(400, 'invalid_path', 'Backslashes are not allowed in the path'),
  SERVER_ERROR: entry(500, 'server_error', 'The relay could not store the webhook'),

  // Bearer tokens (/events, /events/page, /token, /watchlist, /calendar/feed-url, /service/…)
  UNAUTHORIZED: entry(401, 'unauthorized', 'Missing, wrong or revoked bearer token', {
    'www-authenticate': 'Bearer',
  }),
  TOKENS_UNCHECKABLE: entry(
    503,
    'store_unavailable',
    'The relay cannot check tokens now',
    RETRY_SOON,
  ),
  /** A token the store does not know while the store is known to have lost its data. */
  STORE_LOST: entry(
    503,
    'store_lost',
    "The desk relay's store lost its data, so it cannot tell whether this token is valid " +
      '(it was not revoked): the desk administrator has been told and must restore it',
    { 'retry-after': '30' },
  ),

  // POST /hooks/{secret} (ingest.ts)
  BUSY: entry(
    503,
    'busy',
    'The relay is reading too many webhook bodies at once; retry shortly',
    RETRY_SOON,
  ),
  WEBHOOK_TOO_LARGE: entry(
    413,
    'payload_too_large',
    (maxBytes: number) => `Webhook bodies are limited to ${maxBytes} bytes`,
  ),
  TOO_DEEPLY_NESTED: entry(
    400,
    'too_deeply_nested',
    (maxDepth: number) => `The body nests arrays/objects deeper than ${maxDepth} levels`,
  ),
  INVALID_JSON: entry(400, 'invalid_json', 'The body is not valid JSON'),
  INVALID_NOTIFICATION: entry(
    400,
    'invalid_notification',
    'Expected a JSON object with a string "type"',
  ),
  STORE_UNAVAILABLE: entry(
    503,
    'store_unavailable',
    (reason: string) => `The relay cannot store webhooks now: ${reason}`,
    RETRY_SOON,
  ),
  /** SQLite's disk is full: a 503 the service retries (a 500 may be given up), not soon. */
  DISK_FULL: entry(
    503,
    'disk_full',
    'The relay cannot store webhooks now: its disk is full (the operator must free space); retry later',
    { 'retry-after': '30' },
  ),

  // GET /events and /events/page
  /** This node cannot reach its store (another node may): the desktop moves on. */
  STORE_CUT_OFF: entry(
    503,
    'store_cut_off',
    (reason: string) => `This relay node cannot reach its store: ${reason}`,
    RETRY_SOON,
  ),
  INVALID_PAGE_QUERY: entry(
    400,
    'invalid_request',
    'after must be an event id and limit an integer 1–1000',
  ),
  UNKNOWN_PAGE_AFTER: entry(
    400,
    'invalid_request',
    'after must be an event id from this relay, or 0',
  ),
  INVALID_RESUME_POINT: entry(
    400,
    'invalid_request',
    'Last-Event-ID / after must be an event id from this relay, or 0',
  ),
  LIMITS_UNCHECKABLE: entry(
    503,
    'store_unavailable',
    "The relay cannot count the desk's open streams and reads now",
    RETRY_SOON,
  ),
  TOO_MANY_DESKTOPS: entry(
    429,
    'too_many_desktops',
    (user: string, max: number, minutes: number) =>
      `${user} already has ${max} desktops seen in the last ${minutes} minutes: quit the app on one, or wait`,
    { 'retry-after': '60' },
  ),
  TOO_MANY_PAGE_READS: entry(
    429,
    'too_many_page_reads',
    (user: string, max: number) =>
      `${user} already has ${max} page reads in flight on this desk: read them, then ask again`,
    { 'retry-after': '5' },
  ),
  TOO_MANY_STREAMS: entry(
    429,
    'too_many_streams',
    (user: string, max: number) =>
      `${user} already has ${max} streams open on this desk: close one (or quit the app on another machine) and try again`,
    { 'retry-after': '30' },
  ),

  // POST /token (token-endpoint.ts)
  TOKEN_RATE_LIMITED: (wait: number) =>
    new RelayError(429, 'rate_limited', `Too many token requests: retry in ${wait} s`, {
      'retry-after': String(wait),
    }),
  TOKEN_FORM_EXPECTED: entry(400, 'invalid_request', 'Send the form scope=calendar or scope=news'),
  TOKEN_FORM_TOO_LARGE: entry(413, 'payload_too_large', 'The form is limited to 4 KiB'),
  INVALID_SCOPE: entry(400, 'invalid_scope', 'scope must be calendar or news'),
  NO_KEYS_FOR_TOKENS: entry(
    501,
    'not_configured',
    `This relay has no provider keys, so it cannot hand out access tokens. ${NO_KEYS_HINT}`,
  ),
  /** The service refused the token exchange (upstream-failure.ts): `upstream_<its code>`. */
  UPSTREAM: (authCode: string, message: string) =>
    new RelayError(authCode === 'network' ? 504 : 502, `upstream_${authCode}`, message),

  // GET /service/… (gateway/): answers of the relay's own, not the service's
  NO_KEYS_FOR_GATEWAY: entry(
    503,
    'not_configured',
    'This relay has no provider keys, so it cannot read the service for you. ' +
      'Ask the desk administrator to run `relay keys set`.',
    { 'retry-after': '60' },
  ),
  GATEWAY_RATE_LIMITED: (wait: number) =>
    new RelayError(
      429,
      'rate_limited',
      `Too many reads of the service from your token: retry in ${wait} s`,
      { 'retry-after': String(wait) },
    ),
  UPSTREAM_TOO_LARGE: entry(502, 'upstream_too_large', 'The service answer is too large to relay'),
  UPSTREAM_UNREACHABLE: entry(
    504,
    'upstream_unreachable',
    (reason: string) => `The relay could not reach the service: ${reason}`,
  ),

  // /watchlist and /calendar/feed-url (calendar-feed/)
  INVALID_BODY: (status: 400 | 413 | 415, message: string) =>
    new RelayError(status, 'invalid_request', message),
  INVALID_WATCHLIST: entry(400, 'invalid_watchlist', (detail: string) => detail),
  NO_KEYS_FOR_FEEDS: entry(
    501,
    'not_configured',
    `This relay has no provider keys, so it cannot serve calendar feeds. ${NO_KEYS_HINT}`,
  ),
  FEED_KEY_MISMATCH: entry(503, 'feed_key_mismatch', (text: string) => text),
  FEED_STORE_UNAVAILABLE: entry(
    503,
    'store_unavailable',
    'The relay cannot reach its store now; try again shortly.',
    RETRY_SOON,
  ),
  FEED_FAILED: entry(
    500,
    'server_error',
    'The relay could not serve the calendar feed; its log says why.',
  ),

  // Desk operations: /presence, /admin… (desk-ops/)
  /** A request the route cannot take as sent: the message says what to change. */
  INVALID_REQUEST: entry(400, 'invalid_request', (message: string) => message),
  ADMIN_TOKENS_UNCHECKABLE: entry(
    503,
    'store_unavailable',
    'The relay cannot check admin tokens now',
    { 'retry-after': '5' },
  ),
  TRADER_TOKEN_ON_ADMIN: entry(
    403,
    'forbidden',
    'A trader token cannot be used here: use an admin token',
  ),
  ADMIN_TOKEN_REQUIRED: entry(401, 'unauthorized', 'An admin token is required', {
    'www-authenticate': 'Bearer',
  }),
  SIGN_IN_FORM_EXPECTED: entry(415, 'unsupported_media_type', 'Send the sign-in form'),
  SIGN_IN_FORM_TOO_LARGE: entry(413, 'too_large', 'The sign-in form is limited to 4 KiB'),
  LOG_UNREADABLE: entry(
    503,
    'store_unavailable',
    'The relay cannot read the log or its traders now',
    { 'retry-after': '5' },
  ),
  PRESENCE_UNRECORDABLE: entry(503, 'store_unavailable', 'The relay cannot record presence now', {
    'retry-after': '5',
  }),
  UNKNOWN_DESKTOP: entry(404, 'unknown_desktop', 'Open GET /events with the desktop headers first'),
} as const;
