/**
 * The shipped deploy files: deploy/nginx.conf passes `nginx -t` on the installed nginx, and
 * the two-node compose example and systemd unit start a real relay with their exact flags.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { exited, spawnRelay, tempDir, waitFor } from './helpers.js';
import { startRedis } from './redis-server.js';

interface ComposeService {
  command?: string | string[];
  ports?: string[];
  volumes?: string[];
  env_file?: string[];
}

/** A relay command line with its places swapped for the test's: loopback, port 0, temp data. */
function runnable(args: string[], redisUrl: string | null): string[] {
  const out = [...args];
  const swap = (flag: string, value: string) => {
    const i = out.indexOf(flag);
    expect(i, `${flag} in ${args.join(' ')}`).toBeGreaterThanOrEqual(0);
    out[i + 1] = value;
  };
  swap('--host', '127.0.0.1');
  swap('--port', '0');
  swap('--data', tempDir('mb-deploy-data-'));
  if (redisUrl) swap('--redis', redisUrl);
  return out;
}

/** The argv after `src/relay/cli.ts` in a command line. */
function relayArgs(command: string): string[] {
  const words = command.trim().split(/\s+/);
  const at = words.indexOf('src/relay/cli.ts');
  expect(at, command).toBeGreaterThan(0);
  return words.slice(at + 1);
}

async function startsWith(args: string[]): Promise<string> {
  const relay = await spawnRelay(args, {
    MACROBELL_RELAY_SECRET: 'deploy-secret',
    MACROBELL_RELAY_TOKEN: 'deploy-token',
  });
  await waitFor(() => /^relay store: /m.test(relay.stdout()), 'the startup lines');
  relay.child.kill('SIGTERM');
  await exited(relay.child);
  return relay.stdout();
}

const NGINX = '/usr/sbin/nginx';

describe('deploy configs', () => {
  it('deploy/nginx.conf is accepted by the installed nginx (1.22 on Debian 12)', () => {
    if (!existsSync(NGINX))
      throw new Error(
        'nginx is needed for this test: install it with `sudo apt-get install nginx`',
      );
    const dir = tempDir('mb-nginx-');
    // A self-signed certificate stands in for certbot's.
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=relay.test',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' }); // prettier-ignore
    const site = readFileSync('deploy/nginx.conf', 'utf8')
      .replace(/\/etc\/letsencrypt\/live\/[^;]*fullchain\.pem/, join(dir, 'cert.pem'))
      .replace(/\/etc\/letsencrypt\/live\/[^;]*privkey\.pem/, join(dir, 'key.pem'));
    writeFileSync(
      join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n` +
        `access_log ${dir}/access.log;\n${site}\n}\n`,
    );
    const r = spawnSync(NGINX, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], {
      encoding: 'utf8',
    });
    expect(r.stderr).toMatch(/syntax is ok/);
    expect(r.stderr).not.toMatch(/unknown directive|\[emerg\]/);
    expect(r.status).toBe(0);
  });

  it('the Caddyfile caps bodies at 1 MiB, not 1 MB', () => {
    const caddy = readFileSync('deploy/Caddyfile', 'utf8');
    expect(caddy).toMatch(/max_size 1MiB/);
  });

  it('deploy/compose.ha.yml: two relay nodes on one durable Redis, each command runs as written', async () => {
    const compose = load(readFileSync('deploy/compose.ha.yml', 'utf8')) as {
      services: Record<string, ComposeService>;
    };
    const { redis, 'relay-a': a, 'relay-b': b } = compose.services;
    expect(String(redis?.command)).toMatch(/--appendonly,yes,--appendfsync,always/);
    expect(a && b).toBeTruthy();
    // The same command and secrets; separate data volumes and host ports.
    expect(b?.command).toEqual(a?.command);
    expect(b?.env_file).toEqual(a?.env_file);
    expect(a?.volumes?.[1]).not.toEqual(b?.volumes?.[1]);
    expect(a?.ports?.[0]?.split(':')[0]).not.toEqual(b?.ports?.[0]?.split(':')[0]);
    const args = relayArgs(String(a?.command));
    expect(args.join(' ')).toMatch(/--redis redis:\/\/redis:6379\/0/);
    const db = await startRedis();
    try {
      const out = await startsWith(runnable(args, db.url));
      expect(out).toMatch(
        /^relay store: redis 127\.0\.0\.1:\d+ \(durability: appendfsync always\)$/m,
      );
    } finally {
      await db.stop();
    }
  }, 60_000);

  it('deploy/macrobell-relay.service: ExecStart runs as written (SQLite)', async () => {
    const unit = readFileSync('deploy/macrobell-relay.service', 'utf8');
    const exec = /^ExecStart=(.*)$/m.exec(unit)?.[1] ?? '';
    const out = await startsWith(runnable(relayArgs(exec), null));
    expect(out).toMatch(/^relay store: sqlite /m);
  }, 60_000);
});
