/**
 * An eventDates answer for a window rounded out to whole minutes, cut back to the window
 * the trader asked for: the dates whose `dateUtc` falls in it (both ends included, as the
 * service counts). Unchanged when nothing falls outside — the service's bytes as they
 * came — and unchanged when the body is not the expected list.
 *
 * The answer is parsed once, when it is kept (`indexWindow`): each date's time and where
 * its bytes lie in one re-serialised body. A cut served from the cache is then slices of
 * those bytes, never a parse of a body that may be megabytes (issue #44: re-reading a
 * 6.4 MB window re-parsed it on every hit and stalled webhook ingest).
 */
import { createHash } from 'node:crypto';
import type { UpstreamAnswer } from './upstream.js';

const etagOf = (text: string) =>
  `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;

/** Where each date lies in `items` (`[a,b,…]`), and its time (NaN: kept by every cut). */
export interface WindowIndex {
  items: Buffer;
  starts: Uint32Array;
  ends: Uint32Array;
  times: Float64Array;
}

function timeOf(item: unknown): number {
  const at = typeof item === 'object' && item !== null && 'dateUtc' in item && item.dateUtc;
  return typeof at === 'string' ? Date.parse(at) : Number.NaN;
}

/** The index of a 200 list of dates, or null (not a 200, not a list: passed as it came). */
export function indexWindow(answer: UpstreamAnswer): WindowIndex | null {
  if (answer.status !== 200) return null;
  let list: unknown;
  try {
    list = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(list)) return null;
  const texts = list.map((item) => JSON.stringify(item));
  const starts = new Uint32Array(texts.length);
  const ends = new Uint32Array(texts.length);
  const times = new Float64Array(texts.length);
  let at = 1;
  texts.forEach((text, i) => {
    starts[i] = at;
    at += Buffer.byteLength(text);
    ends[i] = at;
    at += 1;
    times[i] = timeOf(list[i]);
  });
  const items = Buffer.from(`[${texts.join(',')}]`);
  // Compact JSON (what the service sends) re-serialises to the same bytes: keep one copy.
  return { items: items.equals(answer.body) ? answer.body : items, starts, ends, times };
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** The answer cut to `w` from its index: no parse, slices of the kept bytes. */
export function cutIndexed(
  answer: UpstreamAnswer,
  index: WindowIndex | null,
  w: { from: number; to: number },
): UpstreamAnswer {
  if (!index) return answer;
  const parts: Buffer[] = [];
  let runStart = -1;
  let kept = 0;
  const close = (end: number) => {
    if (runStart < 0) return;
    if (parts.length > 0) parts.push(COMMA);
    parts.push(index.items.subarray(index.starts[runStart], index.ends[end - 1]));
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
  if (kept === index.times.length) return answer;
  const body = Buffer.concat([OPEN, ...parts, CLOSE]);
  // The cut is a function of the kept answer and the window: its tag is too (no hash of
  // the cut bytes per read).
  const etag = etagOf(`${answer.headers.etag ?? ''} ${w.from} ${w.to}`);
  return { ...answer, headers: { ...answer.headers, etag }, body };
}

/** The answer cut to `w`, indexing it first (one parse): for an answer not kept. */
export function cutToWindow(
  answer: UpstreamAnswer,
  w: { from: number; to: number },
): UpstreamAnswer {
  return cutIndexed(answer, indexWindow(answer), w);
}
