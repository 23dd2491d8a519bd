/**
 * An eventDates answer for a window rounded out to whole minutes, cut back to the window
 * the trader asked for: the dates whose `dateUtc` falls in it (both ends included, as the
 * service counts). Unchanged when nothing falls outside — the service's bytes as they
 * came — and unchanged when the body is not the expected list.
 */
import { createHash } from 'node:crypto';
import type { UpstreamAnswer } from './upstream.js';

const etagOf = (body: Buffer) =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

function inside(item: unknown, w: { from: number; to: number }): boolean {
  const at = (item as { dateUtc?: unknown } | null)?.dateUtc;
  if (typeof at !== 'string') return true;
  const t = Date.parse(at);
  return Number.isNaN(t) || (t >= w.from && t <= w.to);
}

export function cutToWindow(
  answer: UpstreamAnswer,
  w: { from: number; to: number },
): UpstreamAnswer {
  if (answer.status !== 200) return answer;
  let items: unknown;
  try {
    items = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return answer;
  }
  if (!Array.isArray(items)) return answer;
  const kept = items.filter((item) => inside(item, w));
  if (kept.length === items.length) return answer;
  const body = Buffer.from(JSON.stringify(kept));
  return { ...answer, headers: { ...answer.headers, etag: etagOf(body) }, body };
}
