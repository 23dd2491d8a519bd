/**
 * The manifest of a Redis desk's backup (`manifest.json`): what made it, how many keys of
 * which type and how many webhooks the stream held, and the SHA-256 of every file in the
 * folder — so `relay restore` refuses a damaged or partial backup before it writes anything.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const MANIFEST_FILE = 'manifest.json';
/** The data folder's files a desk cannot rebuild (a SQLite node's relay.db is copied apart). */
export const BACKED_UP_FILES = [
  'relay-secrets.json',
  'provider-keys.json',
  'calendar-feed.key',
  'admin-session.key',
] as const;
/** The Redis keys, one JSON line each: `{"k": key, "t": type, "ttl": ms, "v": DUMP base64}`. */
export const REDIS_KEYS_FILE = 'redis-keys.jsonl';
const FORMAT = 'macrobell-relay-backup';
const VERSION = 1;

const manifestShape = z.object({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  backend: z.literal('redis'),
  createdAt: z.string(),
  /** The key prefix the keys were read under. */
  prefix: z.string(),
  keys: z.number().int().nonnegative(),
  types: z.record(z.string(), z.number().int().nonnegative()),
  /** Entries of each stream (the webhooks log, the desk's control streams). */
  streams: z.record(z.string(), z.number().int().nonnegative()),
  /** Every file of the backup but the manifest, with its SHA-256 (hex). */
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});
export type BackupManifest = z.infer<typeof manifestShape>;

export function newManifest(
  fields: Omit<BackupManifest, 'format' | 'version' | 'backend'>,
): BackupManifest {
  return { format: FORMAT, version: VERSION, backend: 'redis', ...fields };
}

export function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** True when `dir` holds a Redis backup (a manifest), which restore reads instead of relay.db. */
export function isRedisBackup(dir: string): boolean {
  return existsSync(join(dir, MANIFEST_FILE));
}

/**
 * The manifest of the backup in `dir`, once every file it lists is there with its checksum;
 * throws a plain message naming what is wrong otherwise.
 */
export async function readVerifiedManifest(dir: string): Promise<BackupManifest> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'));
  } catch (err) {
    throw new Error(`${dir}/${MANIFEST_FILE} cannot be read: ${(err as Error).message}`);
  }
  const parsed = manifestShape.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `${dir}/${MANIFEST_FILE} is not a manifest this relay reads (format ${FORMAT} version ${VERSION}): ` +
        `${parsed.error.issues[0]?.path.join('.') || 'its shape'} is wrong`,
    );
  const manifest = parsed.data;
  if (!(REDIS_KEYS_FILE in manifest.files))
    throw new Error(`${dir}/${MANIFEST_FILE} lists no ${REDIS_KEYS_FILE}`);
  for (const [name, sum] of Object.entries(manifest.files)) {
    if (name !== REDIS_KEYS_FILE && !(BACKED_UP_FILES as readonly string[]).includes(name))
      throw new Error(`${dir}/${MANIFEST_FILE} names a file a backup does not hold: ${name}`);
    const path = join(dir, name);
    if (!existsSync(path)) throw new Error(`the backup is incomplete: ${name} is missing`);
    if ((await sha256File(path)) !== sum)
      throw new Error(`the backup is damaged: ${name} does not match its checksum in the manifest`);
  }
  return manifest;
}
