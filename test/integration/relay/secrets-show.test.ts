/**
 * `relay secrets show` reads and never writes: on a node whose secrets come from the
 * environment it shows those (and says so) without making a relay-secrets.json, and with
 * neither a file nor the environment it says where the secrets are instead of generating
 * new ones the relay does not use.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { nodeArgs } from '../../support/spawn-cli.js';

const show = (data: string, env: NodeJS.ProcessEnv) =>
  spawnSync(
    process.execPath,
    [...nodeArgs('src/relay/cli.ts'), 'secrets', 'show', '--data', data],
    {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, MACROBELL_RELAY_SECRET: '', MACROBELL_RELAY_TOKEN: '', ...env },
    },
  );

describe('relay secrets show', () => {
  it('shows the environment’s secrets, and where each comes from, writing nothing', () => {
    const data = tempDir('mb-secrets-env-');
    const r = show(data, {
      MACROBELL_RELAY_SECRET: 'env-secret-123',
      MACROBELL_RELAY_TOKEN: 'env-token-456',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'webhook path secret: env-secret-123   (from MACROBELL_RELAY_SECRET)',
    );
    expect(r.stdout).toContain('desktop token:       env-token-456   (from MACROBELL_RELAY_TOKEN)');
    expect(readdirSync(data)).toEqual([]);
  }, 30_000);

  it('with neither the environment nor a file: says where to look, generates and writes nothing', () => {
    const data = tempDir('mb-secrets-none-');
    const r = show(data, {});
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /no webhook path secret and desktop token in .*relay-secrets\.json or the environment/,
    );
    expect(r.stderr).toMatch(/sudo cat \/etc\/macrobell-relay\.env.*Nothing was written\./s);
    expect(existsSync(join(data, 'relay-secrets.json'))).toBe(false);
  }, 30_000);

  it('reads the file a relay generated', () => {
    const data = tempDir('mb-secrets-file-');
    writeFileSync(
      join(data, 'relay-secrets.json'),
      JSON.stringify({ secret: 'file-secret-1', token: 'file-token-22' }),
      { mode: 0o600 },
    );
    const r = show(data, {});
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /webhook path secret: file-secret-1 {3}\(from .*relay-secrets\.json\)/,
    );
    expect(r.stdout).toMatch(/desktop token: {7}file-token-22 {3}\(from .*relay-secrets\.json\)/);
  }, 30_000);
});
