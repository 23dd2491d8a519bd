/**
 * A user's feed as an HTTP answer: their watched releases out of the shared window, as
 * iCalendar, with an ETag and Last-Modified so a polling calendar app gets a bodiless 304
 * when nothing it shows changed.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventDate } from '../../shared/domain.js';
import { feedSummary, toIcs } from '../../shared/ics.js';

export interface FeedBody {
  text: string;
  etag: string;
  lastModified: number;
}

/** Deterministic for the same data (DTSTAMP = the newest change), so the ETag is stable. */
export function renderFeed(
  items: readonly EventDate[],
  watched: readonly string[],
  watchlistUpdatedAt: number,
  refreshMinutes: number,
): FeedBody {
  const set = new Set(watched);
  const rows = items
    .filter((ed) => set.has(ed.eventId))
    .sort((a, b) => a.dateUtc.localeCompare(b.dateUtc) || a.id.localeCompare(b.id));
  const lastModified = rows.reduce(
    (m, ed) => Math.max(m, (ed.lastUpdated ?? 0) * 1000),
    watchlistUpdatedAt,
  );
  // HTTP dates have whole seconds: round down so If-Modified-Since compares equal.
  const stamp = Math.floor(lastModified / 1000) * 1000;
  const text = toIcs(rows, stamp, {
    summary: feedSummary,
    feed: { name: 'Macrobell — watched releases', refreshMinutes },
  });
  const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
  return { text, etag, lastModified: stamp };
}

function notModified(req: IncomingMessage, body: FeedBody): boolean {
  const inm = req.headers['if-none-match'];
  // Weak comparison (RFC 9110 §13.1.2): a proxy or client may have weakened our tag to W/"…".
  if (inm !== undefined)
    return inm.split(',').some((t) => {
      const tag = t.trim().replace(/^W\//, '');
      return tag === body.etag || tag === '*';
    });
  const ims = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(ims) && body.lastModified <= ims;
}

export function sendFeed(
  req: IncomingMessage,
  res: ServerResponse,
  body: FeedBody,
  maxAgeSec: number,
): void {
  const headers = {
    etag: body.etag,
    'last-modified': new Date(body.lastModified).toUTCString(),
    // Private: the URL is a credential, so shared caches must not keep the answer.
    'cache-control': `private, max-age=${maxAgeSec}`,
  };
  if (notModified(req, body)) return void res.writeHead(304, headers).end();
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/calendar; charset=utf-8',
    'content-disposition': 'inline; filename="macrobell-watched.ics"',
    'content-length': Buffer.byteLength(body.text),
  });
  res.end(req.method === 'HEAD' ? undefined : body.text);
}
