/**
 * Presence in Redis, beside the relay's other keys (one hash slot): a hash per desktop
 * (`presence:USER:DESKTOP`), a hash per user of its desktops and when each was last heard
 * (`presence-user:USER`, to cap them across the desk), the set of desktop keys' suffixes,
 * and one hash of node reports. Open, close and ack are Lua scripts: a user at the cap
 * cannot add a desktop, and a late close of an old stream cannot mark a desktop that
 * already reconnected elsewhere as gone. A desktop unheard for PRESENCE_KEEP_MS expires.
 */
import type { RedisTarget } from '../../redis/redis-client.js';
import type Redis from 'ioredis';
import { z } from 'zod';
import { alertsTodaySchema, type AlertsToday } from '../../../shared/desk-alerts-today.js';
import { appliedHistorySchema, type AppliedHistory } from '../../../shared/desk-applied.js';
import { connectSharedRedis } from '../../redis/redis-connect.js';
import { PREFIX } from '../../redis/redis-scripts.js';
import {
  MAX_DESKTOPS_PER_USER,
  PRESENCE_KEEP_MS,
  type DesktopIdentity,
  type DesktopPresence,
  type NodeReport,
  type PresenceStore,
} from './presence-store.js';

/** The set of desktops (a new name: the set before it may hold rows kept for a week). */
const DESKTOPS = `${PREFIX}presence-desktops`;
const OLD_DESKTOPS = `${PREFIX}presence`;
const NODES = `${PREFIX}presence-nodes`;
const desktopKey = (member: string) => `${PREFIX}presence:${member}`;
const userKey = (user: string) => `${PREFIX}presence-user:${user}`;
const KEEP_SECONDS = Math.ceil(PRESENCE_KEEP_MS / 1000);

/**
 * KEYS: desktop, the user's desktops, all desktops. ARGV: desktop, at, cap, member, then
 * the desktop's fields and values. 1 = recorded, 0 = a new desktop past the cap.
 */
const OPEN_SCRIPT = `
local at = tonumber(ARGV[2])
local known = false
local live = 0
local seen = redis.call('HGETALL', KEYS[2])
for i = 1, #seen, 2 do
  if seen[i] == ARGV[1] then known = true; live = live + 1
  elseif tonumber(seen[i + 1]) <= at - ${PRESENCE_KEEP_MS} then redis.call('HDEL', KEYS[2], seen[i])
  else live = live + 1 end
end
if not known and live >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
redis.call('EXPIRE', KEYS[1], ${KEEP_SECONDS})
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ${KEEP_SECONDS})
redis.call('SADD', KEYS[3], ARGV[4])
return 1`;

/** KEYS: desktop. ARGV: connection, at. */
const CLOSE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'connection') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'connected', '0', 'disconnected_at', ARGV[2])
return 1`;

/**
 * KEYS: desktop, the user's desktops, all desktops. ARGV: applied id, at, today's alerts
 * as JSON ('' = unchanged), desktop, member, the applied times as JSON ('' = unchanged).
 */
const ACK_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'applied_id', ARGV[1], 'applied_at', ARGV[2], 'last_seen_at', ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'alerts_today', ARGV[3]) end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'applied_history', ARGV[6]) end
redis.call('EXPIRE', KEYS[1], ${KEEP_SECONDS})
redis.call('HSET', KEYS[2], ARGV[4], ARGV[2])
redis.call('EXPIRE', KEYS[2], ${KEEP_SECONDS})
redis.call('SADD', KEYS[3], ARGV[5])
return 1`;

type PresenceRedis = Redis & {
  mbPresenceOpen(...args: string[]): Promise<number>;
  mbPresenceClose(...args: string[]): Promise<number>;
  mbPresenceAck(...args: string[]): Promise<number>;
};

const num = (v: string | undefined) => (v === undefined || v === '' ? null : Number(v));

/** JSON this relay stored after validation, read back through its schema; unreadable: null. */
function stored<T>(schema: z.ZodType<T>, raw: string | undefined): T | null {
  if (!raw) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A node's published figures (JSON in the nodes hash, written by any node's version). */
const nodeReportSchema = z.object({
  node: z.string(),
  streams: z.number(),
  ingestPerSecond: z.number(),
  storeOk: z.boolean(),
  storeReason: z.string().nullable(),
  durability: z.string().nullable().optional(),
  reportedAt: z.number(),
  url: z.string().optional(),
}) satisfies z.ZodType<NodeReport>;

function toPresence(h: Record<string, string>): DesktopPresence | null {
  if (!h.user || !h.desktop) return null;
  return {
    user: h.user,
    desktop: h.desktop,
    appVersion: h.app_version ?? '',
    os: h.os ?? '',
    node: h.node ?? '',
    connected: h.connected === '1',
    connectedAt: Number(h.connected_at ?? 0),
    disconnectedAt: num(h.disconnected_at),
    lastSeenAt: Number(h.last_seen_at ?? 0),
    appliedId: h.applied_id || null,
    appliedAt: num(h.applied_at),
    alertsToday: stored(alertsTodaySchema, h.alerts_today),
    appliedHistory: stored(appliedHistorySchema, h.applied_history) ?? [],
  };
}

export class RedisPresenceStore implements PresenceStore {
  readonly backend = 'redis';

  private constructor(
    private readonly redis: PresenceRedis,
    private readonly maxDesktops: number,
  ) {}

  static async open(
    target: string | RedisTarget,
    maxDesktops = MAX_DESKTOPS_PER_USER,
  ): Promise<RedisPresenceStore> {
    const redis = await connectSharedRedis<PresenceRedis>(target, "the desk's presence", {
      mbPresenceOpen: { numberOfKeys: 3, lua: OPEN_SCRIPT },
      mbPresenceClose: { numberOfKeys: 1, lua: CLOSE_SCRIPT },
      mbPresenceAck: { numberOfKeys: 3, lua: ACK_SCRIPT },
    });
    // The set of earlier versions listed rows kept for a week: never read again.
    await redis.del(OLD_DESKTOPS);
    return new RedisPresenceStore(redis, maxDesktops);
  }

  async opened(who: DesktopIdentity, connection: string, at: number): Promise<boolean> {
    const member = `${who.user}:${who.desktop}`;
    const fields = {
      user: who.user,
      desktop: who.desktop,
      app_version: who.appVersion,
      os: who.os,
      node: who.node,
      connection,
      connected: '1',
      connected_at: String(at),
      disconnected_at: '',
      last_seen_at: String(at),
    };
    const recorded = await this.redis.mbPresenceOpen(
      desktopKey(member),
      userKey(who.user),
      DESKTOPS,
      who.desktop,
      String(at),
      String(this.maxDesktops),
      member,
      ...Object.entries(fields).flat(),
    );
    return recorded === 1;
  }

  async closed(user: string, desktop: string, connection: string, at: number): Promise<void> {
    await this.redis.mbPresenceClose(desktopKey(`${user}:${desktop}`), connection, String(at));
  }

  async ack(
    user: string,
    desktop: string,
    appliedId: string,
    at: number,
    alerts: AlertsToday | null = null,
    applied: AppliedHistory | null = null,
  ): Promise<boolean> {
    const member = `${user}:${desktop}`;
    const today = alerts ? JSON.stringify(alerts) : '';
    const history = applied ? JSON.stringify(applied) : '';
    const keys = [desktopKey(member), userKey(user), DESKTOPS];
    const args = [appliedId, String(at), today, desktop, member, history];
    return (await this.redis.mbPresenceAck(...keys, ...args)) === 1;
  }

  async list(): Promise<DesktopPresence[]> {
    const members = await this.redis.smembers(DESKTOPS);
    const rows = await Promise.all(members.map((m) => this.redis.hgetall(desktopKey(m))));
    const gone = members.filter((_, i) => Object.keys(rows[i] ?? {}).length === 0);
    if (gone.length > 0) await this.redis.srem(DESKTOPS, ...gone);
    return rows.map(toPresence).filter((p): p is DesktopPresence => p !== null);
  }

  async reportNode(report: NodeReport): Promise<void> {
    await this.redis.hset(NODES, report.node, JSON.stringify(report));
  }

  async nodes(): Promise<NodeReport[]> {
    const all = await this.redis.hgetall(NODES);
    // A report no node of this version can read is left out, not a failed page.
    return Object.values(all)
      .map((v) => stored(nodeReportSchema, v))
      .filter((r): r is NodeReport => r !== null);
  }

  async forgetNode(node: string): Promise<boolean> {
    return (await this.redis.hdel(NODES, node)) === 1;
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
