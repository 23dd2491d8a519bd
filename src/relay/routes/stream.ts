/**
 * `GET /events`: the stored webhooks as Server-Sent Events, resumed after `Last-Event-ID`
 * (or `?after=`), then live (sse-hub.ts fans out with raw writes). HEAD answers the
 * stream's headers and keeps nothing open.
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { SSE_HEADERS } from '../../node/http/server/sse.js';
import { RELAY_EVENT_ID } from '../../shared/relay-ids.js';
import type { EventLog } from '../log/event-log.js';
import { RelayErrors } from '../errors.js';
import { requestUser } from './auth.js';
import type { RelayContext, RelayRoute } from './context.js';

export type StreamContext = Pick<RelayContext, 'desk' | 'events' | 'hub' | 'ops' | 'logger'>;

/** Ids are opaque to clients; each backend checks its own format (parseId). */
export const eventId = z.string().regex(RELAY_EVENT_ID, 'must be an event id');

/** Where to resume: the Last-Event-ID header, else `?after=`; null = from now. */
function resumePoint(events: EventLog, req: IncomingMessage, url: URL): string | null {
  const header = req.headers['last-event-id'];
  const raw = typeof header === 'string' && header !== '' ? header : url.searchParams.get('after');
  if (raw === null) return null;
  const parsed = eventId.safeParse(raw);
  const id = parsed.success ? events.parseId(parsed.data) : null;
  if (id === null) throw RelayErrors.INVALID_RESUME_POINT();
  return id;
}

export const streamRoute: RelayRoute<StreamContext> = {
  method: 'GET',
  path: '/events',
  async handle({ ctx, req, res, url }) {
    req.resume();
    // Before the token check, which needs the store: the desktop moves to another node.
    const health = ctx.events.health();
    if (health.cutOff) throw RelayErrors.STORE_CUT_OFF(health.reason ?? 'no answer');
    const user = await requestUser(ctx, req);
    const after = resumePoint(ctx.events, req, url);
    if (req.method === 'HEAD') return void res.writeHead(200, SSE_HEADERS).end();
    let tracked: boolean;
    try {
      tracked = await ctx.desk.trackStream(user, res);
    } catch {
      throw RelayErrors.LIMITS_UNCHECKABLE();
    }
    if (!tracked) throw RelayErrors.TOO_MANY_STREAMS(user, ctx.desk.maxStreams(user));
    if (res.destroyed) return;
    if (!(await ctx.ops.beforeStream(req, res, user))) return;
    return ctx.hub.serve(res, after);
  },
};
