/**
 * The admin routes (admin-auth.ts decides who may use them):
 *   GET  /admin          the desk page, or JSON for `Accept: application/json`
 *   GET  /admin/log      the delivery log of a range (?since=…&until=…), HTML or JSON
 *   GET  /admin/deliveries  one trader's prints per desktop (?user=…&grep=…&since=…&until=…), JSON
 *   POST /admin/replay   {user, since, until?}: re-send a range to one trader's desktops
 *   POST /admin/session  the sign-in form
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { z } from 'zod';
import { readJsonBody } from '../../calendar-feed/read-body.js';
import { sendJson, sendReplyError } from '../../http-util.js';
import { RelayErrors } from '../../errors.js';
import { renderAdminPage } from './admin-page.js';
import { renderLogError, renderLogPage } from '../replay/delivery-log-html.js';
import { adminAuth, sendHtml, wantsJson } from './admin-auth.js';
import type { AdminStore } from './admin-store.js';
import type { AdminSnapshot } from './admin-view.js';
import { parseWhen, type DeliveryLog } from '../replay/delivery-log.js';
import { ReplayRefused, type ReplayResult } from '../replay/replay.js';
import type { TraderLog } from '../replay/trader-log.js';

export interface AdminRoutesOptions {
  admins: AdminStore;
  /** True when the token is a trader's (so the refusal can say why). */
  isTraderToken: (token: string) => Promise<boolean>;
  snapshot: () => Promise<AdminSnapshot>;
  log: (since: number, until: number) => Promise<DeliveryLog>;
  traderLog: (user: string, grep: string, since: number, until: number) => Promise<TraderLog>;
  replay: (user: string, since: number, until: number) => Promise<ReplayResult>;
  /** The relay's own secret: admin session cookies are signed with a key derived from it. */
  sessionSecret: string;
  now: () => number;
  logger?: Logger;
}

const WHEN_RULE = 'ISO 8601 times or 30m / 2h / 1d ago';
const replayBody = z.strictObject({
  user: z.string().min(1).max(64),
  since: z.string().max(40),
  until: z.string().max(40).optional(),
});

const deliveriesQuery = z.strictObject({
  user: z.string({ error: 'is required' }).min(1, 'is required').max(64),
  grep: z.string().max(100).default(''),
  since: z.string().max(40).default('1d'),
  until: z.string().max(40).optional(),
});

/** since / until as times, or why not. */
function range(since: string, until: string | undefined, now: number) {
  const s = parseWhen(since, now);
  const u = until === undefined ? now : parseWhen(until, now);
  if (s === null || u === null) return new Error(`since and until must be ${WHEN_RULE}`);
  if (s > now) return new Error('since is in the future');
  if (s > u) return new Error('since must be before until');
  return { since: s, until: u };
}

const ROUTES: Record<string, string> = {
  '/admin': 'GET',
  '/admin/log': 'GET',
  '/admin/deliveries': 'GET',
  '/admin/replay': 'POST',
  '/admin/session': 'POST',
};

/** `GET /admin/deliveries`: one trader's prints per desktop, JSON only. */
function deliveriesRoute(opts: AdminRoutesOptions, auth: ReturnType<typeof adminAuth>) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    req.resume();
    if ((await auth.require(req, res, { html: false })) === null) return;
    const q = new URL(req.url ?? '/', 'http://relay').searchParams;
    const parsed = deliveriesQuery.safeParse(Object.fromEntries(q));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.join('.') || 'query';
      const message = `deliveries: ${where} ${issue?.message ?? 'is invalid'}`;
      return sendReplyError(res, RelayErrors.INVALID_REQUEST(message));
    }
    const { user, grep, since, until } = parsed.data;
    const r = range(since, until, opts.now());
    if (r instanceof Error) return sendReplyError(res, RelayErrors.INVALID_REQUEST(r.message));
    try {
      sendJson(res, 200, { ...r, ...(await opts.traderLog(user, grep, r.since, r.until)) });
    } catch (err) {
      if (err instanceof ReplayRefused) return sendReplyError(res, err);
      opts.logger?.warn({ err }, 'deliveries failed: the store is unavailable');
      sendReplyError(res, RelayErrors.LOG_UNREADABLE());
    }
  };
}

export function adminRoutes(opts: AdminRoutesOptions) {
  const auth = adminAuth(opts);
  const deliveries = deliveriesRoute(opts, auth);

  async function view(req: IncomingMessage, res: ServerResponse): Promise<void> {
    req.resume();
    const json = wantsJson(req);
    const admin = await auth.require(req, res, { html: !json });
    if (admin === null) return;
    const snapshot = await opts.snapshot();
    if (json) return sendJson(res, 200, snapshot);
    sendHtml(res, 200, renderAdminPage(snapshot, admin));
  }

  async function log(req: IncomingMessage, res: ServerResponse): Promise<void> {
    req.resume();
    const json = wantsJson(req);
    if ((await auth.require(req, res, { html: !json })) === null) return;
    const q = new URL(req.url ?? '/', 'http://relay').searchParams;
    // An empty field of the page's form means its default, as an absent one.
    const r = range(q.get('since') || '1h', q.get('until') || undefined, opts.now());
    if (r instanceof Error) {
      if (!json) return sendHtml(res, 400, renderLogError(r.message));
      return sendReplyError(res, RelayErrors.INVALID_REQUEST(r.message));
    }
    const rows = { ...r, ...(await opts.log(r.since, r.until)) };
    if (json) return sendJson(res, 200, rows);
    sendHtml(res, 200, renderLogPage(rows, opts.now()));
  }

  async function replay(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const admin = await auth.require(req, res, { bearerOnly: true });
    if (admin === null) return void req.resume();
    const body = await readJsonBody(req);
    if (!body.ok) return sendReplyError(res, RelayErrors.INVALID_BODY(body.status, body.message));
    const parsed = replayBody.safeParse(body.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.join('.') || 'body';
      const message = `replay: ${where} ${issue?.message ?? 'is invalid'} (send {"user", "since", "until"?})`;
      return sendReplyError(res, RelayErrors.INVALID_REQUEST(message));
    }
    const r = range(parsed.data.since, parsed.data.until, opts.now());
    if (r instanceof Error) return sendReplyError(res, RelayErrors.INVALID_REQUEST(r.message));
    try {
      const result = await opts.replay(parsed.data.user, r.since, r.until);
      opts.logger?.info(
        {
          audit: 'replay',
          admin,
          user: result.user,
          events: result.events,
          desktops: result.desktops,
        },
        'replay sent',
      );
      sendJson(res, 200, result);
    } catch (err) {
      if (err instanceof ReplayRefused) return sendReplyError(res, err);
      opts.logger?.warn({ err }, 'replay failed: the store is unavailable');
      sendReplyError(res, RelayErrors.LOG_UNREADABLE());
    }
  }

  return {
    handles: (path: string) => Object.hasOwn(ROUTES, path),
    route(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> | void {
      const method = ROUTES[path] as string;
      const ok = req.method === method || (method === 'GET' && req.method === 'HEAD');
      if (!ok) {
        req.resume();
        return sendReplyError(res, RelayErrors.METHOD_NOT_ALLOWED(method));
      }
      if (path === '/admin/log') return log(req, res);
      if (path === '/admin/deliveries') return deliveries(req, res);
      if (path === '/admin/replay') return replay(req, res);
      if (path === '/admin/session') return auth.signIn(req, res);
      return view(req, res);
    },
  };
}
