/**
 * `relay backup --redis URL --to DIR [--data D]` and `relay restore --from DIR --redis URL
 * [--data D] [--force]` for a desk on Redis: every relay key (redis-dump.ts) into
 * `redis-keys.jsonl`, the node's files a desk cannot rebuild (as the SQLite backup takes
 * them), and a manifest with counts and checksums. Restore checks the whole backup first,
 * goes only into a store with no relay key (unless --force), RESTOREs with the TTLs and
 * checks the keys and each stream's length against the manifest. Output names counts and
 * files, never a value: the folder and its files are 0700/0600, like the secrets they hold.
 */
import {
  chmodSync,
  closeSync,
  copyFileSync,
  createReadStream,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type Redis from 'ioredis';
import { connectOrExplain, createRedisClient, type RedisTarget } from '../redis/redis-client.js';
import {
  deleteRelayKeys,
  dumpKeys,
  relayKeys,
  restoreKeys,
  streamLengths,
  type DumpedKey,
} from '../redis/redis-dump.js';
import { PREFIX } from '../redis/redis-scripts.js';
import {
  BACKED_UP_FILES,
  MANIFEST_FILE,
  REDIS_KEYS_FILE,
  newManifest,
  readVerifiedManifest,
  sha256File,
  type BackupManifest,
} from './backup-manifest.js';

export interface BackupIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Where Redis is, for output: host and port only (never the URL's password). */
const whereOf = (target: RedisTarget) => {
  const u = new URL(target.url);
  return `${u.hostname}:${u.port || '6379'}`;
};

/** "keys 200/1000", at most one line a second and the last one always. */
function progress(io: BackupIo, verb: string, total: number) {
  let last = 0;
  return (done: number) => {
    const now = Date.now();
    if (done < total && now - last < 1000) return;
    last = now;
    io.out(`${verb} ${done}/${total} keys`);
  };
}

const summary = (m: Pick<BackupManifest, 'keys' | 'types' | 'streams'>) => {
  const types = Object.entries(m.types)
    .sort()
    .map(([t, n]) => `${n} ${t}`)
    .join(', ');
  const events = m.streams[`${PREFIX}events`] ?? 0;
  return `${m.keys} keys (${types || 'none'}); ${events} webhooks in the stream`;
};

/**
 * How long one pipelined command may take: a DUMP of a long stream, or its RESTORE, moves
 * megabytes (the nodes' 5 s is for small commands).
 */
const BULK_COMMAND_TIMEOUT_MS = 120_000;

/** One connection for the command: no reconnect, no queue — a failure ends the command. */
async function withRedis<T>(
  target: RedisTarget,
  purpose: string,
  fn: (r: Redis) => Promise<T>,
): Promise<T> {
  const redis = createRedisClient(target, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    commandTimeout: BULK_COMMAND_TIMEOUT_MS,
  });
  redis.on('error', () => undefined); // each command's own error says what failed
  await connectOrExplain(redis, purpose);
  try {
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

/** A new folder, 0700, for the backup; refuses a folder that already holds anything. */
export function newBackupFolder(to: string): void {
  if (existsSync(to) && readdirSync(to).length > 0)
    throw new Error(`${to} is not empty: back up into a new folder`);
  mkdirSync(to, { recursive: true, mode: 0o700 });
  chmodSync(to, 0o700);
}

/** Copies the node's files present in `dataDir` into `to`, 0600; the names copied. */
export function copyDataFiles(dataDir: string, to: string): string[] {
  const copied: string[] = [];
  for (const name of BACKED_UP_FILES) {
    if (!existsSync(join(dataDir, name))) continue;
    copyFileSync(join(dataDir, name), join(to, name));
    chmodSync(join(to, name), 0o600);
    copied.push(name);
  }
  return copied;
}

export async function backupRedisCommand(
  target: RedisTarget,
  dataDir: string | undefined,
  to: string,
  io: BackupIo,
): Promise<number> {
  if (dataDir !== undefined && !existsSync(dataDir)) {
    io.err(`relay: no data folder ${dataDir}: give the node's --data, or leave it out`);
    return 1;
  }
  const created = !existsSync(to);
  newBackupFolder(to);
  try {
    return await writeRedisBackup(target, dataDir, to, io);
  } catch (err) {
    // No half backup left to be mistaken for one: the folder was new or empty.
    if (created) rmSync(to, { recursive: true, force: true });
    else for (const f of readdirSync(to)) rmSync(join(to, f), { recursive: true, force: true });
    throw err;
  }
}

async function writeRedisBackup(
  target: RedisTarget,
  dataDir: string | undefined,
  to: string,
  io: BackupIo,
): Promise<number> {
  const keysPath = join(to, REDIS_KEYS_FILE);
  const fd = openSync(keysPath, 'wx', 0o600);
  const types: Record<string, number> = {};
  const streams: Record<string, number> = {};
  let written = 0;
  try {
    await withRedis(target, 'the backup', async (redis) => {
      const keys = await relayKeys(redis);
      const report = progress(io, 'Backed up', keys.length);
      await dumpKeys(
        redis,
        keys,
        (k) => {
          const line = { k: k.key, t: k.type, ttl: k.ttl, v: k.dump.toString('base64') };
          writeSync(fd, `${JSON.stringify(line)}\n`);
          types[k.type] = (types[k.type] ?? 0) + 1;
          if (k.length !== undefined) streams[k.key] = k.length;
          written++;
        },
        report,
      );
      if (!keys.length) report(0);
    });
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const files = dataDir ? copyDataFiles(dataDir, to) : [];
  const sums: Record<string, string> = { [REDIS_KEYS_FILE]: await sha256File(keysPath) };
  for (const name of files) sums[name] = await sha256File(join(to, name));
  const manifest = newManifest({
    createdAt: new Date().toISOString(),
    prefix: PREFIX,
    keys: written,
    types,
    streams,
    files: sums,
  });
  writeFileSync(join(to, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: 0o600,
  });
  io.out(`Backed up ${summary(manifest)} from Redis at ${whereOf(target)} into ${to}.`);
  const missing = BACKED_UP_FILES.filter((f) => !files.includes(f));
  io.out(
    dataDir === undefined
      ? "No --data: the node's files (secrets, provider keys, feed key, admin key) are not in it; back up each node's data folder or relay.env apart."
      : `Files: ${files.join(', ') || 'none'}` +
          (missing.length
            ? `; not in ${dataDir}: ${missing.join(', ')} (kept in relay.env? back that up apart)`
            : '') +
          '. Every file is 0600: keep it as you keep the secrets.',
  );
  return 0;
}

/** One line of redis-keys.jsonl, checked: a key under the prefix, its type, TTL and dump. */
function keyOfLine(line: string, n: number): DumpedKey {
  let j: { k?: unknown; t?: unknown; ttl?: unknown; v?: unknown };
  try {
    j = JSON.parse(line) as typeof j;
  } catch {
    throw new Error(`${REDIS_KEYS_FILE} line ${n} is not JSON`);
  }
  if (
    typeof j.k !== 'string' ||
    !j.k.startsWith(PREFIX) ||
    typeof j.t !== 'string' ||
    typeof j.ttl !== 'number' ||
    !Number.isInteger(j.ttl) ||
    j.ttl < 0 ||
    typeof j.v !== 'string'
  )
    throw new Error(`${REDIS_KEYS_FILE} line ${n} is not a relay key`);
  return { key: j.k, type: j.t, ttl: j.ttl, dump: Buffer.from(j.v, 'base64') };
}

async function* keysOf(path: string): AsyncGenerator<DumpedKey> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line !== '') yield keyOfLine(line, n);
  }
}

/** Files of the backup that would overwrite a different file in `dataDir`. */
function conflictingFiles(from: string, dataDir: string, names: string[]): string[] {
  return names.filter(
    (name) =>
      existsSync(join(dataDir, name)) &&
      !readFileSync(join(dataDir, name)).equals(readFileSync(join(from, name))),
  );
}

export interface RedisRestoreOptions {
  from: string;
  target: RedisTarget | undefined;
  dataDir: string | undefined;
  force: boolean;
  io: BackupIo;
}

export async function restoreRedisCommand(opts: RedisRestoreOptions): Promise<number> {
  const { from, target, dataDir, force, io } = opts;
  const manifest = await readVerifiedManifest(from);
  if (manifest.prefix !== PREFIX)
    throw new Error(`${from} holds keys under ${manifest.prefix}, not this relay's ${PREFIX}`);
  const files = Object.keys(manifest.files).filter((f) => f !== REDIS_KEYS_FILE);
  if (dataDir !== undefined && !force) {
    const clash = conflictingFiles(from, dataDir, files);
    if (clash.length) {
      io.err(
        `relay: ${dataDir} already has a different ${clash.join(', ')}: restore into the node's empty folder, or --force to replace. Nothing was written.`,
      );
      return 1;
    }
  }
  if (target) {
    const restored = await withRedis(target, 'the restore', async (redis) => {
      const present = await relayKeys(redis);
      if (present.length && !force) {
        io.err(
          `relay: Redis at ${whereOf(target)} already holds ${present.length} relay keys: restore goes into an empty store ` +
            '(stop every node, then FLUSHALL or a fresh Redis), or --force to replace every relay key with the backup. Nothing was written.',
        );
        return false;
      }
      if (present.length) {
        await deleteRelayKeys(redis, present);
        io.out(`Deleted the ${present.length} relay keys Redis held (--force).`);
      }
      const report = progress(io, 'Restored', manifest.keys);
      let done = 0;
      let batch: DumpedKey[] = [];
      const lasting: string[] = [];
      const flush = async () => {
        await restoreKeys(redis, batch);
        done += batch.length;
        batch = [];
        report(done);
      };
      for await (const k of keysOf(join(from, REDIS_KEYS_FILE))) {
        batch.push(k);
        if (k.ttl === 0) lasting.push(k.key);
        if (batch.length >= 200) await flush();
      }
      if (batch.length) await flush();
      else if (done === 0) report(0);
      await verifyRestore(redis, manifest, done, lasting);
      return true;
    });
    if (!restored) return 1;
    io.out(`Restored ${summary(manifest)} into Redis at ${whereOf(target)}; counts checked.`);
  }
  if (dataDir !== undefined) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    for (const name of files) {
      copyFileSync(join(from, name), join(dataDir, name));
      chmodSync(join(dataDir, name), 0o600);
    }
    io.out(`Files: ${files.join(', ') || 'none'} into ${dataDir}.`);
  }
  io.out('Start the nodes.');
  return 0;
}

/** The keys and every stream's length as the manifest says, or a plain error naming the gap. */
async function verifyRestore(
  redis: Redis,
  manifest: BackupManifest,
  done: number,
  lasting: string[],
) {
  if (done !== manifest.keys)
    throw new Error(`${REDIS_KEYS_FILE} holds ${done} keys, the manifest ${manifest.keys}`);
  const now = new Set(await relayKeys(redis));
  const gone = lasting.filter((k) => !now.has(k));
  if (gone.length)
    throw new Error(`after the restore ${gone.length} keys are missing, ${gone[0]} first`);
  const streams = Object.keys(manifest.streams);
  const lengths = await streamLengths(
    redis,
    streams.filter((k) => now.has(k)),
  );
  for (const key of streams)
    if (lengths.get(key) !== manifest.streams[key])
      throw new Error(
        `after the restore ${key} holds ${lengths.get(key) ?? 0} entries, the backup ${manifest.streams[key]}`,
      );
  // Keys with a TTL (dedup hashes of the last hour) may expire between RESTORE and here.
  if (now.size > manifest.keys)
    throw new Error(
      `after the restore Redis holds ${now.size} relay keys, the backup ${manifest.keys}: a node is running? stop them`,
    );
}
