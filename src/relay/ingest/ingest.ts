/**
 * Reading and checking one webhook POST: the body is kept byte for byte (never
 * re-serialised), must be a JSON object with a string `type`, and is capped at 1 MiB —
 * reading stops as soon as the cap is passed.
 */
import type { IncomingMessage } from 'node:http';
import { RelayErrors, type RelayError } from '../errors.js';
import { checkJson } from './json-check.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Deepest nesting of arrays/objects accepted: real notifications use a handful of levels. */
export const MAX_JSON_DEPTH = 64;

/** Headers worth keeping beside the body (provenance for debugging; no secrets). */
const KEPT_HEADERS = [
  'content-type',
  'user-agent',
  'x-request-id',
  'x-correlation-id',
  'x-webhook-id',
  'x-forwarded-for',
];

export type IngestResult =
  | {
      ok: true;
      body: Buffer;
      type: string;
      headers: Record<string, string>;
      /** Bytes held from the budget: give them back once the body is stored. */
      held: number;
    }
  | { ok: false; error: RelayError };

/**
 * The bytes of webhook bodies held at once, across all requests: one secret holder with
 * many slow, unfinished 1 MiB bodies could otherwise pin memory until the request timeout.
 */
export class BodyBudget {
  used = 0;
  constructor(readonly limit: number) {}
  take(n: number): boolean {
    if (this.used + n > this.limit) return false;
    this.used += n;
    return true;
  }
  give(n: number): void {
    this.used = Math.max(0, this.used - n);
  }
}

const refused = (error: RelayError) => ({ ok: false, error }) as const;
const tooLarge = () => refused(RelayErrors.WEBHOOK_TOO_LARGE(MAX_BODY_BYTES));

interface BodyState {
  chunks: Buffer[];
  size: number;
  cap: number;
  settled: boolean;
  budget: BodyBudget | undefined;
  done: (result: IngestResult | Error) => void;
}

const BODY = Symbol('macrobell.body');
type Reading = IncomingMessage & { [BODY]?: BodyState };

// The listeners are module-level functions (EventEmitter calls them with `this` = the
// request): nothing is allocated per request for them. Once settled, later events are ignored.
function onBodyData(this: Reading, chunk: Buffer): void {
  const st = this[BODY] as BodyState;
  if (st.settled) return;
  st.size += chunk.length;
  const over =
    st.size > st.cap ? 'too large' : st.budget?.take(chunk.length) === false ? 'busy' : null;
  if (over) {
    st.settled = true;
    st.chunks = [];
    st.budget?.give(st.size - chunk.length);
    this.off('data', onBodyData);
    this.pause();
    st.done(over === 'busy' ? refused(RelayErrors.BUSY()) : tooLarge());
    return;
  }
  st.chunks.push(chunk);
}

function onBodyEnd(this: Reading): void {
  const st = this[BODY] as BodyState;
  if (st.settled) return;
  st.settled = true;
  // One chunk (the usual small webhook): keep it as is, no copy.
  const { chunks } = st;
  const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, st.size);
  const result = checkBody(this, body);
  if (!result.ok) st.budget?.give(body.length);
  st.done(result);
}

function onBodyError(this: Reading, err: Error): void {
  const st = this[BODY] as BodyState;
  if (st.settled) return;
  st.settled = true;
  st.budget?.give(st.size);
  st.done(err);
}

function onBodyAborted(this: Reading): void {
  onBodyError.call(this, new Error('the client closed the request before its end'));
}

/**
 * Reads and checks the body, then calls `done` once: with the webhook, a refusal (reading
 * stops at the cap or when the budget is spent), or the request's error. Callbacks rather
 * than promises: this runs for every webhook, and each promise is allocations and a
 * microtask.
 */
export function readWebhook(
  req: IncomingMessage,
  budget: BodyBudget | undefined,
  done: (result: IngestResult | Error) => void,
): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return done(tooLarge());
  (req as Reading)[BODY] = {
    chunks: [],
    size: 0,
    cap: MAX_BODY_BYTES,
    settled: false,
    budget,
    done,
  };
  req.on('data', onBodyData);
  req.on('end', onBodyEnd);
  req.on('error', onBodyError);
  req.on('aborted', onBodyAborted);
}

function checkBody(req: IncomingMessage, body: Buffer): IngestResult {
  const check = checkJson(body, MAX_JSON_DEPTH);
  if (!check.ok)
    // Too deep wins over a syntax error further on, as when depth was checked first.
    return refused(
      check.reason === 'too-deep' || nestingDepthExceeds(body, MAX_JSON_DEPTH)
        ? RelayErrors.TOO_DEEPLY_NESTED(MAX_JSON_DEPTH)
        : RelayErrors.INVALID_JSON(),
    );
  // An object (not an array) with a string `type`.
  const { type } = check;
  if (type === undefined) return refused(RelayErrors.INVALID_NOTIFICATION());
  const headers: Record<string, string> = {};
  for (const h of KEPT_HEADERS) {
    const v = req.headers[h];
    if (typeof v === 'string') headers[h] = v.length > 512 ? v.slice(0, 512) : v;
  }
  return { ok: true, body, type, headers, held: body.length };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether the JSON text opens more than `max` arrays/objects at once: one loop over the
 * bytes (no recursion), skipping string contents. Invalid JSON is left to the parser.
 */
export function nestingDepthExceeds(body: Buffer, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}
