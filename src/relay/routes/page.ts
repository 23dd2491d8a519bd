/**
 * `GET /events/page?after=<id>&limit=<1–1000>`: the stored webhooks as one JSON page, for
 * clients that poll instead of holding a stream open.
 */
import type { Socket } from 'node:net';
import { z } from 'zod';
import type { Lease } from '../desk/desk-limits.js';
import { RelayErrors } from '../errors.js';
import { LEGACY_USER } from '../users/user-store.js';
import type { EventLog } from '../log/event-log.js';
import { sendJsonText } from '../http-util.js';
import { PAGE_BYTES } from '../stream/sse-hub.js';
import { cutStalled } from '../stream/sse-writes.js';
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

/** Page reads one trader may have in flight across the desk (the legacy token: every older desktop). */
export const PAGES_IN_FLIGHT_PER_USER = 4;
const PAGES_IN_FLIGHT_LEGACY = 100;
/** A page not taken by the client in this long is cut (its socket no longer holds it). */
export const PAGE_SEND_TIMEOUT_MS = 30_000;

/** Each connection that has read a page holds one place of its trader until it closes. */
const places = new WeakMap<Socket, { user: string; lease: Lease }>();

/**
 * A page the client does not read sits in its socket (Node's buffer, then the kernel's)
 * until the connection closes: the place is held as long, so one trader cannot open page
 * reads without end. An idle connection closes after the server's keep-alive timeout, and
 * a socket still full after PAGE_SEND_TIMEOUT_MS is cut.
 */
async function holdPlace(ctx: PageContext, socket: Socket, user: string): Promise<void> {
  if (places.get(socket)?.user === user) return;
  const cap = user === LEGACY_USER ? PAGES_IN_FLIGHT_LEGACY : PAGES_IN_FLIGHT_PER_USER;
  let lease: Lease | null;
  try {
    lease = await ctx.desk.limits.acquire('pages', user, cap);
  } catch {
    throw RelayErrors.LIMITS_UNCHECKABLE();
  }
  if (!lease) throw RelayErrors.TOO_MANY_PAGE_READS(user, cap);
  places.get(socket)?.lease.release();
  places.set(socket, { user, lease });
  const cut = setTimeout(() => {
    if (socket.writableLength > 0) cutStalled(socket);
  }, PAGE_SEND_TIMEOUT_MS);
  cut.unref();
  socket.once('close', () => {
    clearTimeout(cut);
    lease.release();
  });
}

export const pageRoute: RelayRoute<PageContext> = {
  method: 'GET',
  path: '/events/page',
  async handle({ ctx, req, res, url }) {
    req.resume();
    const user = await requestUser(ctx, req);
    const q = pageQuery.safeParse(Object.fromEntries(url.searchParams));
    if (!q.success) throw RelayErrors.INVALID_PAGE_QUERY();
    const after = ctx.events.parseId(q.data.after);
    if (after === null) throw RelayErrors.UNKNOWN_PAGE_AFTER();
    await holdPlace(ctx, req.socket, user);
    sendJsonText(res, 200, await renderPage(ctx.events, after, q.data.limit));
  },
};
