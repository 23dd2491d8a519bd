/**
 * The Redis backup's manifest at the restore's door: read only when it is this format and
 * version, names only the backup's own files, and every file matches its checksum.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MANIFEST_FILE,
  REDIS_KEYS_FILE,
  newManifest,
  readVerifiedManifest,
  sha256File,
} from '../../../src/relay/cli/backup-manifest.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A backup folder with a keys file and the manifest `edit` makes of a good one. */
async function backup(edit: (m: Record<string, unknown>) => unknown = (m) => m): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'mb-manifest-'));
  dirs.push(dir);
  writeFileSync(join(dir, REDIS_KEYS_FILE), '{"k":"macrobell:{relay}:users"}\n');
  const good = newManifest({
    createdAt: '2026-12-05T20:00:00.000Z',
    prefix: 'macrobell:{relay}:',
    keys: 1,
    types: { hash: 1 },
    streams: {},
    files: { [REDIS_KEYS_FILE]: await sha256File(join(dir, REDIS_KEYS_FILE)) },
  });
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(edit({ ...good })));
  return dir;
}

describe('readVerifiedManifest', () => {
  it('reads a whole backup', async () => {
    expect(await readVerifiedManifest(await backup())).toMatchObject({ keys: 1, version: 1 });
  });

  it('refuses another format version, naming it', async () => {
    const dir = await backup((m) => ({ ...m, version: 2 }));
    await expect(readVerifiedManifest(dir)).rejects.toThrow(
      /not a manifest this relay reads \(format macrobell-relay-backup version 1\): version is wrong/,
    );
  });

  it('refuses a manifest naming a file outside the backup', async () => {
    const dir = await backup((m) => ({
      ...m,
      files: { ...(m.files as object), '../relay-secrets.json': 'a'.repeat(64) },
    }));
    await expect(readVerifiedManifest(dir)).rejects.toThrow(
      /names a file a backup does not hold: \.\.\/relay-secrets\.json/,
    );
  });

  it('refuses a file that does not match its checksum, and one that is missing', async () => {
    const dir = await backup();
    writeFileSync(join(dir, REDIS_KEYS_FILE), '{"k":"macrobell:{relay}:user"}\n');
    await expect(readVerifiedManifest(dir)).rejects.toThrow(
      /the backup is damaged: redis-keys\.jsonl does not match its checksum/,
    );
    rmSync(join(dir, REDIS_KEYS_FILE));
    await expect(readVerifiedManifest(dir)).rejects.toThrow(
      /incomplete: redis-keys\.jsonl is missing/,
    );
  });

  it('refuses a folder with no readable manifest', async () => {
    const dir = await backup();
    writeFileSync(join(dir, MANIFEST_FILE), '{not json');
    await expect(readVerifiedManifest(dir)).rejects.toThrow(/manifest\.json cannot be read/);
  });
});
