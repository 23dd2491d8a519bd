/**
 * Presence over HTTP. A desktop names itself in headers on `GET /events`
 * (x-macrobell-desktop, -app-version, -os); the node records the stream as open, and as
 * closed when it ends. `POST /presence {desktop, appliedId}` (the user's bearer token)
 * reports the last event id the desktop applied, every few seconds and after each batch,
 * with the prints it alerted today (`alerts`, optional) and when it applied its last
 * batches (`applied`, optional: desk-applied.ts).
 * Streams without the headers (curl, older apps) are served but not tracked.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { z } from 'zod';
import { alertsTodaySchema } from '../../../shared/desk-alerts-today.js';
import { appliedHistorySchema } from '../../../shared/desk-applied.js';
import { plainPhrase } from '../../../shared/plain-text.js';
import { RELAY_EVENT_ID } from '../../../shared/relay-ids.js';
import { readJsonBody } from '../../calendar-feed/read-body.js';
import { sendReplyError } from '../../http-util.js';
import { RelayErrors } from '../../errors.js';
import type { DesktopIdentity, PresenceStore } from './presence-store.js';

export const DESKTOP_HEADER = 'x-macrobell-desktop';
export const APP_VERSION_HEADER = 'x-macrobell-app-version';
export const OS_HEADER = 'x-macrobell-os';

const desktopId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8–64 letters, digits, _ -');
const identityHeaders = z.object({
  desktop: desktopId,
  appVersion: z.string().regex(/^[\w.+-]{1,40}$/, 'must be a version like 1.4.2'),
  os: z.string().regex(/^[\w .,()+-]{1,64}$/, 'must be a short OS name'),
});
const ackBody = z.strictObject({
  desktop: desktopId,
  appliedId: z.string().regex(RELAY_EVENT_ID, 'must be an event id'),
  /** The prints the desktop alerted today (newer apps). */
  alerts: alertsTodaySchema.optional(),
  /** When it applied its last batches (newer apps). */
  applied: appliedHistorySchema.optional(),
});

export interface PresenceRoutes {
  /** Reads the identity headers: null (not tracked), the identity, or why they are wrong. */
  identify(req: IncomingMessage, user: string): Omit<DesktopIdentity, 'node'> | null | Error;
  /**
   * Records the stream as open now and closed when `res` closes; false (nothing recorded)
   * when the desktop is new and its user has as many as allowed. Rejects when the store is away.
   */
  streamOpened(who: Omit<DesktopIdentity, 'node'>, res: ServerResponse): Promise<boolean>;
  post(req: IncomingMessage, res: ServerResponse, user: string): Promise<void>;
}

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export function presenceRoutes(opts: {
  store: PresenceStore;
  node: () => string;
  parseId: (raw: string) => string | null;
  now: () => number;
  /** After each recorded ack (the lag histogram). */
  onAck?: (appliedId: string) => void;
  logger?: Logger;
}): PresenceRoutes {
  const { store, now } = opts;
  const warn = (err: unknown) =>
    opts.logger?.warn({ err }, 'presence could not be recorded (store away)');
  return {
    identify(req, user) {
      const desktop = header(req, DESKTOP_HEADER);
      if (desktop === undefined) return null;
      const parsed = identityHeaders.safeParse({
        desktop,
        appVersion: header(req, APP_VERSION_HEADER) ?? 'unknown',
        os: header(req, OS_HEADER) ?? 'unknown',
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const names: Record<string, string> = {
          desktop: DESKTOP_HEADER,
          appVersion: APP_VERSION_HEADER,
          os: OS_HEADER,
        };
        return new Error(`${names[String(issue?.path[0])]} ${issue?.message}`);
      }
      return { user, ...parsed.data };
    },
    async streamOpened(who, res) {
      const connection = randomBytes(8).toString('hex');
      const full = { ...who, node: opts.node() };
      if (!(await store.opened(full, connection, now()))) return false;
      res.once('close', () => {
        store.closed(who.user, who.desktop, connection, now()).catch(warn);
      });
      if (res.destroyed) store.closed(who.user, who.desktop, connection, now()).catch(warn);
      return true;
    },
    async post(req, res, user) {
      if (req.method !== 'POST') {
        req.resume();
        return sendReplyError(res, RelayErrors.METHOD_NOT_ALLOWED('POST'));
      }
      const body = await readJsonBody(req);
      if (!body.ok) return sendReplyError(res, RelayErrors.INVALID_BODY(body.status, body.message));
      const ack = ackBody.safeParse(body.value);
      if (!ack.success) {
        const issue = ack.error.issues[0];
        const message = `${issue?.path.join('.') || 'body'} ${issue?.message}`;
        return sendReplyError(res, RelayErrors.INVALID_REQUEST(`presence: ${message}`));
      }
      if (opts.parseId(ack.data.appliedId) === null)
        return sendReplyError(
          res,
          RelayErrors.INVALID_REQUEST('appliedId is not an id of this relay'),
        );
      const foreign = ack.data.applied?.findIndex((c) => opts.parseId(c.id) === null) ?? -1;
      if (foreign !== -1)
        return sendReplyError(
          res,
          RelayErrors.INVALID_REQUEST(`applied.${foreign}.id is not an id of this relay`),
        );
      let known: boolean;
      try {
        const { desktop, appliedId, alerts, applied } = ack.data;
        // A trader's text, shown on the admin page and by `relay status`: stored plain.
        if (alerts?.last) alerts.last.title = plainPhrase(alerts.last.title);
        known = await store.ack(user, desktop, appliedId, now(), alerts ?? null, applied ?? null);
      } catch (err) {
        warn(err);
        return sendReplyError(res, RelayErrors.PRESENCE_UNRECORDABLE());
      }
      if (!known) return sendReplyError(res, RelayErrors.UNKNOWN_DESKTOP());
      res.writeHead(204).end();
      opts.onAck?.(ack.data.appliedId);
    },
  };
}
