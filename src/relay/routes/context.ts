/**
 * What the relay's routes are handed: its parts, built once by startRelay (server.ts).
 * Each route module names the few it uses (a `Pick` of this), so a test can hand it just
 * those.
 */
import type { Logger } from 'pino';
import type { Route } from '../../node/http/server/router.js';
import type { CalendarFeed } from '../calendar-feed/index.js';
import type { Desk } from '../desk/desk.js';
import type { DeskOps } from '../desk-ops/index.js';
import type { EventLog } from '../log/event-log.js';
import type { Gateway } from '../gateway/index.js';
import type { BodyBudget } from '../ingest/ingest.js';
import type { UnknownSecrets } from '../ingest/unknown-secrets.js';
import type { SseHub } from '../stream/sse-hub.js';

export interface RelayContext {
  /** The unguessable path segment of the webhook URL. */
  secret: string;
  /** Older webhook secrets still accepted during a rotation window. */
  retiringSecrets: string[];
  /** Deliveries refused for an unknown secret: counted, told to the chat once an episode. */
  unknownSecrets: UnknownSecrets;
  events: EventLog;
  hub: SseHub;
  desk: Desk;
  feed: CalendarFeed;
  gateway: Gateway;
  ops: DeskOps;
  /** Webhook body bytes held at once across requests. */
  bodyBudget: BodyBudget;
  /** Webhooks refused for their body (400/413), for /metrics. */
  counters: { rejected: number };
  /** The /metrics text. */
  metrics(): Promise<string>;
  /** `POST /token` hands out service tokens only when the desk opted in. */
  issueServiceTokens: boolean;
  logger?: Logger;
}

export type RelayRoute<C = RelayContext> = Route<C>;
