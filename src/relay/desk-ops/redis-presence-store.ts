/**
 * Presence in Redis, beside the relay's other keys (one hash slot): a hash per desktop
 * (`presence:USER:DESKTOP`), the set of those keys' suffixes, and one hash of node
 * reports. Close and ack are Lua scripts so a late close of an old stream cannot mark a
 * desktop that already reconnected elsewhere as gone. Keys expire after a week unheard.
 */
import type { RedisTarget } from '../redis-client.js';
import type Redis from 'ioredis';
import { alertsTodaySchema, type AlertsToday } from '../../shared/desk-alerts-today.js';
import { connectSharedRedis } from '../redis-connect.js';
import { PREFIX } from '../redis-scripts.js';
import type {
  DesktopIdentity,
  DesktopPresence,
  NodeReport,
  PresenceStore,
} from './presence-store.js';

const DESKTOPS = `${PREFIX}presence`;
const NODES = `${PREFIX}presence-nodes`;
const desktopKey = (member: string) => `${PREFIX}presence:${member}`;
const KEEP_SECONDS = 7 * 86_400;

/** KEYS: desktop. ARGV: connection, at. */
const CLOSE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'connection') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'connected', '0', 'disconnected_at', ARGV[2])
return 1`;

/** KEYS: desktop. ARGV: applied id, at, today's alerts as JSON ('' = unchanged). */
const ACK_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'applied_id', ARGV[1], 'applied_at', ARGV[2], 'last_seen_at', ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'alerts_today', ARGV[3]) end
redis.call('EXPIRE', KEYS[1], ${KEEP_SECONDS})
return 1`;

type PresenceRedis = Redis & {
  mbPresenceClose(...args: string[]): Promise<number>;
  mbPresenceAck(...args: string[]): Promise<number>;
};

const num = (v: string | undefined) => (v === undefined || v === '' ? null : Number(v));

/** Stored by this relay after validation; anything unreadable counts as not said. */
function alertsOf(raw: string | undefined): AlertsToday | null {
  if (!raw) return null;
  try {
    const parsed = alertsTodaySchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

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
    alertsToday: alertsOf(h.alerts_today),
  };
}

export class RedisPresenceStore implements PresenceStore {
  readonly backend = 'redis';

  private constructor(private readonly redis: PresenceRedis) {}

  static async open(target: string | RedisTarget): Promise<RedisPresenceStore> {
    const redis = await connectSharedRedis<PresenceRedis>(target, "the desk's presence", {
      mbPresenceClose: { numberOfKeys: 1, lua: CLOSE_SCRIPT },
      mbPresenceAck: { numberOfKeys: 1, lua: ACK_SCRIPT },
    });
    return new RedisPresenceStore(redis);
  }

  async opened(who: DesktopIdentity, connection: string, at: number): Promise<void> {
    const member = `${who.user}:${who.desktop}`;
    const key = desktopKey(member);
    await this.redis
      .multi()
      .hset(key, {
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
      })
      .expire(key, KEEP_SECONDS)
      .sadd(DESKTOPS, member)
      .exec();
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
  ): Promise<boolean> {
    const key = desktopKey(`${user}:${desktop}`);
    const today = alerts ? JSON.stringify(alerts) : '';
    return (await this.redis.mbPresenceAck(key, appliedId, String(at), today)) === 1;
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
    return Object.values(all).map((v) => JSON.parse(v) as NodeReport);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
