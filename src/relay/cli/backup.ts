/**
 * `relay backup --data DIR --to BACKUP` and `relay restore --from BACKUP --data DIR`, for
 * a node on SQLite (a desk on Redis: `--redis URL`, redis-backup.ts): relay.db copied with SQLite's online backup (consistent while the relay
 * runs and commits: every acknowledged webhook up to that moment), and the files beside it
 * that make the desk what it is — the webhook secret and legacy token, the provider keys,
 * the calendar feeds' key (the traders' feed links) and the admin session key. Every file
 * is written 0600 into a folder of its own. Restore goes into a data folder with no
 * relay.db (a fresh one, or after the loss), with the relay stopped.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import Database from 'better-sqlite3';
import { relayDatabasePath } from '../db/relay-db.js';
import { fail, parse, redisOption } from './cli-flags.js';
import { BACKED_UP_FILES, isRedisBackup } from './backup-manifest.js';
import {
  backupRedisCommand,
  copyDataFiles,
  newBackupFolder,
  restoreRedisCommand,
  type BackupIo,
} from './redis-backup.js';

export async function backupCommand(dataDir: string, to: string, io: BackupIo): Promise<number> {
  const db = relayDatabasePath(dataDir);
  if (!existsSync(db)) {
    io.err(
      `relay: no relay.db in ${dataDir}: a desk on Redis is backed up with --redis URL (docs/relay.md, Backup and restore).`,
    );
    return 1;
  }
  if (existsSync(to) && readdirSync(to).length > 0) {
    io.err(`relay: ${to} is not empty: back up into a new folder`);
    return 1;
  }
  newBackupFolder(to);
  const source = new Database(db, { readonly: true, fileMustExist: true });
  try {
    await source.backup(join(to, 'relay.db'));
  } finally {
    source.close();
  }
  chmodSync(join(to, 'relay.db'), 0o600);
  const copied = ['relay.db', ...copyDataFiles(dataDir, to)];
  io.out(`Backed up ${copied.join(', ')} into ${to} (mode 0600: it holds the desk's secrets).`);
  return 0;
}

export function restoreCommand(from: string, dataDir: string, io: BackupIo): number {
  if (!existsSync(join(from, 'relay.db'))) {
    io.err(`relay: ${from} holds no relay.db: not a backup made by \`relay backup\``);
    return 1;
  }
  const db = relayDatabasePath(dataDir);
  if (existsSync(db)) {
    io.err(
      `relay: ${dataDir} already has a relay.db: stop the relay and move that folder aside, then restore into an empty one. Nothing was written.`,
    );
    return 1;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const restored: string[] = [];
  for (const name of ['relay.db', ...BACKED_UP_FILES]) {
    if (!existsSync(join(from, name))) continue;
    copyFileSync(join(from, name), join(dataDir, name));
    chmodSync(join(dataDir, name), 0o600);
    restored.push(name);
  }
  io.out(`Restored ${restored.join(', ')} into ${dataDir}. Start the relay on it.`);
  return 0;
}

const BACKUP_OPTIONS = {
  data: { type: 'string' },
  to: { type: 'string' },
  from: { type: 'string' },
  redis: { type: 'string' },
  'redis-password-file': { type: 'string' },
  'redis-ca': { type: 'string' },
  force: { type: 'boolean' },
  'files-only': { type: 'boolean' },
} satisfies ParseArgsConfig['options'];

/** `relay backup …` / `relay restore …` from argv: the exit code. */
export async function backupCli(command: 'backup' | 'restore', args: string[]): Promise<number> {
  const v = parse(args, BACKUP_OPTIONS);
  const io: BackupIo = {
    out: (l) => process.stdout.write(`${l}\n`),
    err: (l) => process.stderr.write(`${l}\n`),
  };
  const warn = (m: string) => io.err(`relay: ${m}`);
  const dataDir = resolve(v.data ?? 'relay-data');
  if (command === 'backup') {
    if (!v.to || v.from || v.force || v['files-only'])
      fail('backup takes --to FOLDER (and --data DIR, --redis URL)');
    const redis = redisOption(v, undefined, warn);
    if (redis) return backupRedisCommand(redis, v.data ? dataDir : undefined, resolve(v.to), io);
    return backupCommand(dataDir, resolve(v.to), io);
  }
  if (!v.from || v.to) fail('restore takes --from FOLDER (and --data DIR, --redis URL)');
  const from = resolve(v.from);
  if (!isRedisBackup(from)) {
    if (v.redis || v.force || v['files-only'])
      fail(`${from} is not a backup of a Redis desk (no manifest.json)`);
    return restoreCommand(from, dataDir, io);
  }
  const redis = v['files-only'] ? undefined : redisOption(v, undefined, warn);
  if (!redis && !v['files-only'])
    fail(
      `${from} is a backup of a Redis desk: give --redis URL (or MACROBELL_RELAY_REDIS), or --files-only to copy only the node's files into --data`,
    );
  if (v['files-only'] && v.redis) fail('--files-only takes no --redis');
  return restoreRedisCommand({
    from,
    target: redis,
    dataDir: v.data || v['files-only'] ? dataDir : undefined,
    force: v.force === true,
    io,
  });
}
