/**
 * `GET /events/page?after=<id>&limit=<1–1000>`: the stored webhooks as one JSON page, for
 * clients that poll instead of holding a stream open.
 */
import { z } from 'zod';
import { RelayErrors } from '../errors.js';
import type { EventLog } from '../event-log.js';
import { sendJsonText } from '../http-util.js';
import { PAGE_BYTES } from '../sse-hub.js';
import { requestUser } from './auth.js';
import type { RelayContext, RelayRoute } from './context.js';
import { eventId } from './stream.js';

export type PageContext = Pick<RelayContext, 'desk' | 'events' | 'logger'>;

const pageQuery = z.object({
  after: eventId.default('0'),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'must be an integer 1–1000')
    .transform(Number)
    .pipe(z.number().int().min(1).max(1000))
    .default(100),
});

/** The page as JSON text: bodies are spliced in as stored (valid JSON, checked at ingest). */
export async function renderPage(events: EventLog, after: string, limit: number): Promise<string> {
  const point = await events.resume(after);
  const list = await events.after(point.from, limit + 1, PAGE_BYTES);
  const items = list.slice(0, limit);
  const more =
    list.length > limit || (await events.after(items.at(-1)?.id ?? point.from, 1)).length > 0;
  // No parse and re-serialise per event, and no recursion however a body is shaped.
  const parts = items.map(
    (e) => `{"id":"${e.id}","receivedAt":${e.receivedAt},"body":${e.body.toString('utf8')}}`,
  );
  return (
    `{"events":[${parts.join(',')}],"nextAfter":"${items.at(-1)?.id ?? point.from}",` +
    `"hasMore":${more},"oldestId":${JSON.stringify(point.oldestId)},` +
    `"reset":${point.gap}}`
  );
}

export const pageRoute: RelayRoute<PageContext> = {
  method: 'GET',
  path: '/events/page',
  async handle({ ctx, req, res, url }) {
    req.resume();
    await requestUser(ctx, req);
    const q = pageQuery.safeParse(Object.fromEntries(url.searchParams));
    if (!q.success) throw RelayErrors.INVALID_PAGE_QUERY();
    const after = ctx.events.parseId(q.data.after);
    if (after === null) throw RelayErrors.UNKNOWN_PAGE_AFTER();
    sendJsonText(res, 200, await renderPage(ctx.events, after, q.data.limit));
  },
};
