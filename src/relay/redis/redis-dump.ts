/**
 * The relay's keys in Redis, read out and written back whole: SCAN the prefix, then each
 * key's TYPE, PTTL and DUMP (Redis's own serialisation: a stream keeps its entries, its
 * last id and its consumer groups; a hash or set its members) — and RESTORE with the TTL it
 * had. Each key is one consistent copy; keys are read one batch after another while the
 * nodes may run, so the stream holds every webhook acknowledged before its batch was read.
 * Presence (which desktops and nodes are connected now) is left out: the nodes and the
 * desktops report it again within seconds of starting, and a restored one would be stale.
 */
import type Redis from 'ioredis';
import { PREFIX } from './redis-scripts.js';

const BATCH = 200;
const SKIPPED = `${PREFIX}presence`;

export interface DumpedKey {
  key: string;
  type: string;
  /** Milliseconds left to live at the backup; 0: no expiry. */
  ttl: number;
  dump: Buffer;
  /** A stream's entry count (the webhooks, for the log). */
  length?: number;
}

/** What Redis refused, with the command and the ACL's own words, for the operator. */
export class RedisRefusal extends Error {}

function explain(command: string, err: Error): Error {
  if (/^NOPERM/.test(err.message))
    return new RedisRefusal(
      `Redis refused ${command} to this user (${err.message}): run it as the operator user ` +
        '(macrobell-operator in deploy/redis.acl.example: MACROBELL_REDIS_USERNAME and its password), ' +
        `or give your user +${command.toLowerCase()} on ~${PREFIX}*`,
    );
  if (/^BUSYKEY/.test(err.message))
    return new Error(
      `Redis failed ${command}: a key appeared while restoring (${err.message}): stop every node first`,
    );
  return new Error(`Redis failed ${command}: ${err.message}`);
}

/** Runs a pipeline; each reply, or the first refusal explained with its command. */
async function replies(pipe: ReturnType<Redis['pipeline']>, commands: string[]) {
  const results = (await pipe.exec()) ?? [];
  return results.map(([err, value], i) => {
    if (err) throw explain(commands[i] ?? 'a command', err);
    return value;
  });
}

/** Every relay key but presence, sorted (a stable file for the same store). */
export async function relayKeys(redis: Redis): Promise<string[]> {
  const keys = new Set<string>();
  let cursor = '0';
  do {
    let reply: [string, string[]];
    try {
      reply = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 1000);
    } catch (err) {
      throw explain('SCAN', err as Error);
    }
    cursor = reply[0];
    for (const k of reply[1]) if (!k.startsWith(SKIPPED)) keys.add(k);
  } while (cursor !== '0');
  return [...keys].sort();
}

/** DUMPs `keys` a batch at a time, handing each to `onKey`; a key gone meanwhile is skipped. */
export async function dumpKeys(
  redis: Redis,
  keys: string[],
  onKey: (k: DumpedKey) => void,
  onBatch: (done: number) => void,
): Promise<void> {
  for (let at = 0; at < keys.length; at += BATCH) {
    const batch = keys.slice(at, at + BATCH);
    const pipe = redis.pipeline();
    const commands: string[] = [];
    for (const key of batch) {
      pipe.type(key).pttl(key).dumpBuffer(key);
      commands.push('TYPE', 'PTTL', 'DUMP');
    }
    const got = await replies(pipe, commands);
    const streams = batch.filter((_, i) => got[3 * i] === 'stream');
    const lengths = new Map<string, number>();
    if (streams.length) {
      const lens = redis.pipeline();
      for (const key of streams) lens.xlen(key);
      const counted = await replies(
        lens,
        streams.map(() => 'XLEN'),
      );
      streams.forEach((key, i) => lengths.set(key, Number(counted[i])));
    }
    batch.forEach((key, i) => {
      const [type, pttl, dump] = [got[3 * i], got[3 * i + 1], got[3 * i + 2]];
      if (type === 'none' || !(dump instanceof Buffer)) return; // expired or deleted meanwhile
      const ttl = Number(pttl) > 0 ? Number(pttl) : 0;
      onKey({ key, type: String(type), ttl, dump, length: lengths.get(key) });
    });
    onBatch(Math.min(at + BATCH, keys.length));
  }
}

/** Deletes every relay key (restore --force): the store becomes exactly the backup. */
export async function deleteRelayKeys(redis: Redis, keys: string[]): Promise<void> {
  for (let at = 0; at < keys.length; at += BATCH) {
    const pipe = redis.pipeline();
    const batch = keys.slice(at, at + BATCH);
    for (const key of batch) pipe.del(key);
    await replies(
      pipe,
      batch.map(() => 'DEL'),
    );
  }
}

/** RESTOREs a batch of keys with their TTLs. */
export async function restoreKeys(redis: Redis, keys: DumpedKey[]): Promise<void> {
  const pipe = redis.pipeline();
  for (const k of keys) pipe.restore(k.key, k.ttl, k.dump);
  await replies(
    pipe,
    keys.map(() => 'RESTORE'),
  );
}

/** Each stream's entry count now, to check a restore against the manifest. */
export async function streamLengths(redis: Redis, keys: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!keys.length) return out;
  const pipe = redis.pipeline();
  for (const key of keys) pipe.xlen(key);
  const got = await replies(
    pipe,
    keys.map(() => 'XLEN'),
  );
  keys.forEach((key, i) => out.set(key, Number(got[i])));
  return out;
}
