/**
 * Desk mode's parts over the relay's stores: the desk (tokens, /token, revocation), the
 * webcal feed, the read gateway and desk operations (presence, admin page, alerts).
 */
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { startCalendarFeed, type CalendarFeed } from '../calendar-feed/index.js';
import { startDesk, type Desk } from './desk.js';
import { openDeskLimits } from './desk-limits.js';
import { watchRotatedSecrets } from '../ingest/rotated-secrets.js';
import { adminSessionKey } from '../desk-ops/admin/admin-session-key.js';
import { startDeskOps, type DeskOps } from '../desk-ops/index.js';
import {
  UPSTREAM_READS_BURST,
  UPSTREAM_READS_PER_SECOND,
  createGateway,
  type Gateway,
} from '../gateway/index.js';
import type { RelayOptions } from '../server.js';
import type { SseHub } from '../stream/sse-hub.js';
import type { RelayStores } from '../stores.js';

export interface DeskParts {
  desk: Desk;
  feed: CalendarFeed;
  gateway: Gateway;
  ops: DeskOps;
}

/** The desk-wide caps and the rotated webhook secrets (on the desk's Redis, if any). */
async function openDeskState(opts: RelayOptions, now: () => number, logger?: Logger) {
  const limits = await openDeskLimits(opts.redis, now, logger);
  const rotated = await watchRotatedSecrets({
    dataDir: opts.dataDir,
    redis: opts.redis,
    logger,
  }).catch(async (err: unknown) => {
    await limits.close();
    throw err;
  });
  return { limits, rotated };
}

export async function startDeskParts(
  opts: RelayOptions,
  stores: RelayStores,
  hub: SseHub,
  ctx: {
    node: () => string;
    nodeUrl: () => string | null;
    now: () => number;
    logger?: Logger;
  },
): Promise<DeskParts> {
  const { events, users, feedStore } = stores;
  const { now, logger } = ctx;
  const calendarUrl = opts.calendarFeed?.calendarUrl ?? '';
  const state = await openDeskState(opts, now, logger).catch(async (err: unknown) => {
    await feedStore.close();
    await users.close();
    await events.close();
    stores.relayDb?.close();
    throw err;
  });
  const desk = startDesk({
    users,
    ...state,
    keys: null,
    authUrl: '',
    ...opts.desk,
    dataDir: opts.dataDir,
    legacyToken: opts.token,
    storeLost: () => events.health().storeLost,
    logger,
    now,
  });
  const tokens = () => desk.tokens();
  const feed = startCalendarFeed({
    calendarUrl: '',
    ...opts.calendarFeed,
    store: feedStore,
    users,
    tokens,
    logger,
    now,
  });
  // Without service URLs the gateway answers every read with the service unreachable.
  const gateway = createGateway({
    calendarUrl: opts.gateway?.calendarUrl ?? calendarUrl,
    newsUrl: opts.gateway?.newsUrl ?? '',
    tokens,
    admit: (user, cost) =>
      state.limits.take('gateway', user, UPSTREAM_READS_PER_SECOND, UPSTREAM_READS_BURST, cost),
    logger,
    now,
  });
  const ops = await startDeskOps({
    redis: opts.redis,
    sessionSecret: adminSessionKey(opts.dataDir),
    relayDb: stores.relayDb,
    events,
    hub,
    users,
    watchlist: async (user) => (await feedStore.watchlist(user)).eventIds,
    tokens,
    calendarUrl,
    isTraderToken: async (t) =>
      (await desk.authenticate({
        headers: { authorization: `Bearer ${t}` },
      } as IncomingMessage)) !== null,
    node: ctx.node,
    nodeUrl: ctx.nodeUrl,
    alerts: opts.deskAlerts,
    now,
    logger,
  }).catch(async (err: unknown) => {
    await desk.close(); // closes the users store
    await feed.close();
    await events.close();
    stores.relayDb?.close();
    throw err;
  });
  return { desk, feed, gateway, ops };
}
