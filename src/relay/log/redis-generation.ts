/**
 * The store-generation marker: how a relay node knows that the desk's Redis came back
 * without its data (restarted without its append-only file, flushed, replaced) or older
 * than it was (restored from an older backup, or writes lost), instead of carrying on as
 * if an empty store were the desk.
 *
 * Redis keeps a hash `macrobell:{relay}:store` — a random `generation` made by the first
 * node to open the store — and each node remembers the generation and the last stream id
 * it has seen, in memory and in `DATA/redis-store.json`, so a restarted node still knows.
 * A node that finds the marker gone, or the stream's last id below the one it had seen,
 * or a marker it never saw that replaces no generation it knew (the store wiped, then opened
 * first by a node with a fresh data folder), writes the finding into the marker (`lostAt`,
 * `lostReason`; a marker made after a wipe names the one it `replaces`), so every node reports the
 * same loss — `/healthz` (503 with the reason), the admin page and the desk's chat — and
 * a trader's token the emptied store no longer knows is answered 503 "store lost", never
 * 401 "revoked". `relay store accept-loss --redis URL` clears the finding once the desk
 * is restored (or accepted as it is).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { z } from 'zod';
import { parseCheckedJson } from '../../node/json/checked-json.js';
import { compareIds } from './event-log.js';
import { PREFIX } from '../redis/redis-scripts.js';

export const STORE_MARKER = `${PREFIX}store`;
const FILE = 'redis-store.json';

/** KEYS: marker. ARGV: field, value, … Creates the marker only when it is absent. */
const CREATE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1`;

/**
 * KEYS: marker. ARGV: generation, lostAt, reason[, replaced generation]. Records a loss once
 * per generation.
 */
const LOST_SCRIPT = `
if redis.call('HGET', KEYS[1], 'generation') ~= ARGV[1] then return 0 end
if redis.call('HEXISTS', KEYS[1], 'lostAt') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'lostAt', ARGV[2], 'lostReason', ARGV[3])
if ARGV[4] then redis.call('HSETNX', KEYS[1], 'replaces', ARGV[4]) end
return 1`;

type MarkerRedis = Redis & {
  mbMarkerCreate(key: string, ...fields: string[]): Promise<number>;
  mbMarkerLost(
    key: string,
    generation: string,
    lostAt: string,
    reason: string,
    replaces?: string,
  ): Promise<number>;
};

export function defineMarkerScripts(redis: Redis): void {
  redis.defineCommand('mbMarkerCreate', { numberOfKeys: 1, lua: CREATE_SCRIPT });
  redis.defineCommand('mbMarkerLost', { numberOfKeys: 1, lua: LOST_SCRIPT });
}

const remembered = z.object({
  generation: z.string().nullable().catch(null),
  lastId: z.string().catch('0-0'),
});
type Remembered = z.infer<typeof remembered>;

function readRemembered(dataDir: string | undefined): Remembered {
  if (!dataDir) return { generation: null, lastId: '0-0' };
  try {
    // A field missing or of another type reads as "not seen" (each field's `catch`).
    return parseCheckedJson(FILE, remembered, readFileSync(join(dataDir, FILE), 'utf8'));
  } catch {
    return { generation: null, lastId: '0-0' };
  }
}

/** What a node found about the store, for /healthz, the admin page and chat. */
export interface StoreLoss {
  /** When it was found (epoch ms): one loss, one chat post. */
  at: number;
  reason: string;
}

export class StoreGeneration {
  private known: Remembered;
  private saved = '';
  private loss: StoreLoss | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly opts: { dataDir?: string; now: () => number; logger?: Logger },
  ) {
    this.known = readRemembered(opts.dataDir);
    this.saved = JSON.stringify(this.known);
  }

  /** The loss the marker records (any node's finding), or null. */
  lost(): StoreLoss | null {
    return this.loss;
  }

  /**
   * Reads the marker and the stream's last id against what this node knew; records a loss
   * in the marker. `streamLastId`: the stream's last-generated-id now ('0-0' when none);
   * `seenId`: the last id this node has passed to its clients.
   */
  async check(streamLastId: string, seenId: string): Promise<void> {
    const r = this.redis as MarkerRedis;
    let marker = await r.hgetall(STORE_MARKER);
    const knownLast = compareIds(seenId, this.known.lastId) > 0 ? seenId : this.known.lastId;
    if (!marker.generation) {
      const generation = randomBytes(12).toString('hex');
      const fields = ['generation', generation, 'createdAt', String(this.opts.now())];
      // A node that knew a generation finds the store wiped; otherwise it is a new desk, or
      // a store from before the marker (adopted as it is).
      if (this.known.generation !== null)
        fields.push(
          'replaces', this.known.generation,
          'lostAt', String(this.opts.now()),
          'lostReason',
          "Redis came back without the desk's data (its store-generation marker is gone: " +
            'restarted without its append-only file, flushed or replaced); traders, admins, ' +
            'watch lists and events may be gone. Restore Redis from a backup, or add them again, ' +
            'then run `relay store accept-loss --redis URL`',
        ); // prettier-ignore
      await r.mbMarkerCreate(STORE_MARKER, ...fields);
      marker = await r.hgetall(STORE_MARKER);
    } else if (
      this.known.generation !== null &&
      this.known.generation !== marker.generation &&
      marker.replaces !== this.known.generation &&
      !marker.lostAt
    ) {
      // A marker this node never saw, and no node recorded the change: the store was wiped
      // and a node with no memory of it (a fresh data folder) made a new one first.
      await r.mbMarkerLost(
        STORE_MARKER,
        marker.generation,
        String(this.opts.now()),
        'Redis holds a store this node never saw (its store-generation marker changed ' +
          'while this node was away: wiped and started again by a node with a new data ' +
          'folder, or replaced); traders, admins, watch lists and events may be gone. Restore ' +
          'Redis from a backup, or add them again, then run `relay store accept-loss --redis URL`',
        // once accepted, the other nodes that remember the old store adopt this one quietly
        this.known.generation,
      );
      marker = await r.hgetall(STORE_MARKER);
    } else if (
      this.known.generation === marker.generation &&
      !marker.lostAt &&
      compareIds(knownLast, streamLastId) > 0
    ) {
      await r.mbMarkerLost(
        STORE_MARKER,
        marker.generation,
        String(this.opts.now()),
        `Redis came back older than it was: its last event is ${streamLastId}, this node had ` +
          `seen ${knownLast} (restored from an older backup, or it lost acknowledged writes). ` +
          'Events, traders, admins or watch lists may be missing: restore the newest backup, ' +
          'then run `relay store accept-loss --redis URL`',
      );
      marker = await r.hgetall(STORE_MARKER);
    }
    const generation = marker.generation ?? null;
    const loss =
      marker.lostAt && marker.lostReason
        ? { at: Number(marker.lostAt), reason: marker.lostReason }
        : null;
    if (loss && this.loss?.at !== loss.at)
      this.opts.logger?.error({ storeLost: loss.reason }, 'the desk store lost its data');
    if (!loss && this.loss) this.opts.logger?.info('the desk store loss was accepted');
    this.loss = loss;
    // After a loss the stream starts again: remember where it is now.
    const lastId = generation !== this.known.generation ? streamLastId : knownLast;
    this.known = {
      generation,
      lastId: compareIds(streamLastId, lastId) > 0 ? streamLastId : lastId,
    };
    this.remember();
  }

  private remember(): void {
    const text = JSON.stringify(this.known);
    if (!this.opts.dataDir || text === this.saved) return;
    const path = join(this.opts.dataDir, FILE);
    try {
      writeFileSync(`${path}.tmp`, text, { mode: 0o600 });
      renameSync(`${path}.tmp`, path);
      this.saved = text;
    } catch (err) {
      this.opts.logger?.warn({ err }, `could not write ${FILE} in the data folder`);
    }
  }
}

/** `relay store accept-loss`: clears the recorded loss; false when none was recorded. */
export async function acceptStoreLoss(redis: Redis): Promise<boolean> {
  return (await redis.hdel(STORE_MARKER, 'lostAt', 'lostReason')) > 0;
}
