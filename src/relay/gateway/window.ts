/**
 * An eventDates answer for a window rounded out to whole minutes, cut back to the window
 * the trader asked for: the dates whose `dateUtc` falls in it (both ends included, as the
 * service counts). Unchanged when nothing falls outside — the service's bytes as they
 * came — and unchanged when the body is not the expected list.
 *
 * The answer is indexed once, when it is kept: where each date's bytes lie in the body as
 * it came, and its time. A cut served from the cache is then slices of those bytes, never
 * a parse of a body that may be megabytes (issue #44: re-reading a 6.4 MB window re-parsed
 * it on every hit and stalled webhook ingest). Indexing walks the body date by date and,
 * kept by the gateway, hands the event loop back every `INDEX_SLICE_BYTES`, so a webhook
 * never waits behind a whole window's parse.
 */
import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { UpstreamAnswer } from './upstream.js';

const etagOf = (text: string) =>
  `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;

/** Where each date lies in `items` (the body: `[a,b,…]`), and its time (NaN: kept by every cut). */
export interface WindowIndex {
  items: Buffer;
  starts: Uint32Array;
  ends: Uint32Array;
  times: Float64Array;
}

/** Bytes of a body indexed (or hashed) before the event loop is handed back. */
export const INDEX_SLICE_BYTES = 256 * 1024;

function timeOf(item: unknown): number {
  const at = typeof item === 'object' && item !== null && 'dateUtc' in item && item.dateUtc;
  return typeof at === 'string' ? Date.parse(at) : Number.NaN;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Past the string starting at `p` (a quote), or -1 when it never ends. */
function skipString(buf: Buffer, p: number): number {
  for (let q = buf.indexOf(QUOTE, p + 1); q >= 0; q = buf.indexOf(QUOTE, q + 1)) {
    let slashes = 0;
    while (buf[q - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q + 1;
  }
  return -1;
}

/**
 * Past the value starting at `p`, or -1. Only where it ends: what is inside is checked by
 * parsing the value alone (a bracket of the wrong kind fails that parse).
 */
function skipValue(buf: Buffer, p: number): number {
  const c = buf[p];
  if (c === QUOTE) return skipString(buf, p);
  if (c !== 0x7b && c !== 0x5b) {
    while (p < buf.length && !isSpace(buf[p]) && buf[p] !== 0x2c && buf[p] !== 0x5d) p++;
    return p;
  }
  let depth = 0;
  while (p < buf.length) {
    const b = buf[p] as number;
    if (b === QUOTE) {
      p = skipString(buf, p);
      if (p < 0) return -1;
      continue;
    }
    if (b === 0x7b || b === 0x5b) depth++;
    else if ((b === 0x7d || b === 0x5d) && --depth === 0) return p + 1;
    p++;
  }
  return -1;
}

function skipSpace(buf: Buffer, p: number): number {
  while (isSpace(buf[p])) p++;
  return p;
}

/**
 * The index of a 200 list of dates, built a slice at a time: the generator yields after
 * each `INDEX_SLICE_BYTES` of dates and returns the index, or null (not a 200, not a JSON
 * list: passed as it came). Each date is parsed on its own, so the list is checked as
 * strictly as one parse of the whole body would.
 */
function* indexSteps(answer: UpstreamAnswer): Generator<void, WindowIndex | null> {
  if (answer.status !== 200) return null;
  const buf = answer.body;
  let p = skipSpace(buf, 0);
  if (buf[p] !== 0x5b) return null;
  const starts: number[] = [];
  const ends: number[] = [];
  const times: number[] = [];
  let sliceFrom = p;
  p = skipSpace(buf, p + 1);
  if (buf[p] === 0x5d) p++;
  else
    for (;;) {
      const end = skipValue(buf, p);
      if (end < 0) return null;
      let item: unknown;
      try {
        item = JSON.parse(buf.toString('utf8', p, end));
      } catch {
        return null;
      }
      starts.push(p);
      ends.push(end);
      times.push(timeOf(item));
      p = skipSpace(buf, end);
      if (buf[p] === 0x5d) {
        p++;
        break;
      }
      if (buf[p] !== 0x2c) return null;
      p = skipSpace(buf, p + 1);
      if (p - sliceFrom >= INDEX_SLICE_BYTES) {
        yield;
        sliceFrom = p;
      }
    }
  if (skipSpace(buf, p) !== buf.length) return null;
  return {
    items: buf,
    starts: Uint32Array.from(starts),
    ends: Uint32Array.from(ends),
    times: Float64Array.from(times),
  };
}

/** The index at once (one block of the event loop): for an answer not kept. */
export function indexWindow(answer: UpstreamAnswer): WindowIndex | null {
  const steps = indexSteps(answer);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The index, handing the event loop back between slices: for an answer being kept. */
export async function indexWindowInSlices(answer: UpstreamAnswer): Promise<WindowIndex | null> {
  const steps = indexSteps(answer);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await yieldToLoop();
  }
}

/** A body's hash as an ETag, a slice at a time (a made-up tag of a body of megabytes). */
export async function bodyEtagInSlices(body: Buffer): Promise<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < body.length; at += INDEX_SLICE_BYTES) {
    if (at > 0) await yieldToLoop();
    hash.update(body.subarray(at, at + INDEX_SLICE_BYTES));
  }
  return `"${hash.digest('base64url').slice(0, 27)}"`;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * The answer cut to `w` from its index, as the chunks to write (no parse, no copy: slices
 * of the kept bytes), or null when every date is in `w` (the answer as kept).
 */
export function cutChunks(
  index: WindowIndex,
  w: { from: number; to: number },
): { chunks: Buffer[]; bytes: number } | null {
  const chunks: Buffer[] = [OPEN];
  let bytes = 2;
  let runStart = -1;
  let kept = 0;
  const close = (end: number) => {
    if (runStart < 0) return;
    if (chunks.length > 1) {
      chunks.push(COMMA);
      bytes++;
    }
    const run = index.items.subarray(index.starts[runStart], index.ends[end - 1]);
    chunks.push(run);
    bytes += run.length;
    runStart = -1;
  };
  for (let i = 0; i < index.times.length; i++) {
    const t = index.times[i] as number;
    if (Number.isNaN(t) || (t >= w.from && t <= w.to)) {
      kept++;
      if (runStart < 0) runStart = i;
    } else close(i);
  }
  close(index.times.length);
  if (kept === index.times.length) return null;
  chunks.push(CLOSE);
  return { chunks, bytes };
}

/** The ETag of a cut: a function of the kept answer and the window (no hash of the cut's bytes). */
export function cutEtag(answer: UpstreamAnswer, w: { from: number; to: number }): string {
  return etagOf(`${answer.headers.etag ?? ''} ${w.from} ${w.to}`);
}

/** The answer cut to `w` from its index, as one body. */
function cutIndexed(
  answer: UpstreamAnswer,
  index: WindowIndex | null,
  w: { from: number; to: number },
): UpstreamAnswer {
  const cut = index && cutChunks(index, w);
  if (!cut) return answer;
  return {
    ...answer,
    headers: { ...answer.headers, etag: cutEtag(answer, w) },
    body: Buffer.concat(cut.chunks, cut.bytes),
  };
}

/** The answer cut to `w`, indexing it first (one parse): for an answer not kept. */
export function cutToWindow(
  answer: UpstreamAnswer,
  w: { from: number; to: number },
): UpstreamAnswer {
  return cutIndexed(answer, indexWindow(answer), w);
}
