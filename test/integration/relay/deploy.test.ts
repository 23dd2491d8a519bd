/**
 * The shipped deploy files: deploy/nginx.conf passes `nginx -t` on the installed nginx, and
 * the two-node compose example and systemd unit start a real relay with their exact flags.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { exited, spawnRelay, tempDir, waitFor } from './helpers.js';
import { startRedis } from './redis-server.js';
import {
  DEFAULT_USER_ACL_LINE,
  OPERATOR_ACL_RULES,
  OPERATOR_ACL_USER,
  RELAY_ACL_RULES,
} from '../../../src/relay/redis/redis-acl.js';
import { nodeTooOld } from '../../../src/relay/cli/node-version.js';

interface ComposeService {
  command?: string & string[];
  ports?: string[];
  volumes?: string[];
  env_file?: string[];
  secrets?: string[];
}

interface ComposeFile {
  services: Record<string, ComposeService>;
  secrets: Record<string, { file: string }>;
  volumes: Record<string, unknown>;
}

/** The Compose service keys this file may use (a subset of the Compose spec's). */
const SERVICE_KEYS = ['image', 'working_dir', 'volumes', 'env_file', 'secrets', 'command',
  'ports', 'depends_on', 'restart']; // prettier-ignore

/** A relay command line with its places swapped for the test's: loopback, port 0, temp data. */
function runnable(
  args: string[],
  redisUrl: string | null,
  more: Record<string, string> = {},
): string[] {
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
  for (const [flag, value] of Object.entries(more)) swap(flag, value);
  return out;
}

/** The argv after `src/relay/cli.ts` in a command line. */
function relayArgs(command: string): string[] {
  const words = command.trim().split(/\s+/);
  const at = words.indexOf('src/relay/cli.ts');
  expect(at, command).toBeGreaterThan(0);
  return words.slice(at + 1);
}

async function startsWith(args: string[], env: Record<string, string> = {}): Promise<string> {
  const relay = await spawnRelay(args, {
    ...env,
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

  it('deploy/Caddyfile is accepted by the installed Caddy, and leaves the body limit to the relay', () => {
    const r = spawnSync(
      '/usr/bin/caddy',
      ['adapt', '--config', 'deploy/Caddyfile', '--adapter', 'caddyfile'],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status, r.stderr).toBe(0);
    // Caddy 2.6 answers its own max_size with 502s and resets (test/integration/proxies/).
    expect(readFileSync('deploy/Caddyfile', 'utf8')).not.toMatch(/^\s*max_size/m);
  });

  it('deploy/compose.ha.yml reads right: known keys, shipped files, loopback ports, the repo mounted', () => {
    // Docker cannot run here: the file is checked by reading it (the command runs below).
    const compose = load(readFileSync('deploy/compose.ha.yml', 'utf8')) as ComposeFile;
    expect(Object.keys(compose).sort()).toEqual(['secrets', 'services', 'volumes']);
    const { redis, 'relay-a': a, 'relay-b': b } = compose.services;
    for (const svc of Object.values(compose.services)) {
      for (const key of Object.keys(svc)) expect(SERVICE_KEYS).toContain(key);
      for (const secret of svc.secrets ?? []) expect(compose.secrets).toHaveProperty(secret);
      for (const v of svc.volumes ?? []) {
        const source = v.split(':')[0] as string;
        if (source.startsWith('.')) {
          // Compose resolves a relative path against the file's folder: `..` is the repo.
          expect(existsSync(join('deploy', source, 'src/relay/cli.ts')), v).toBe(true);
        } else expect(compose.volumes).toHaveProperty(source);
      }
      // Published only on loopback, for the TLS proxy in front.
      for (const port of svc.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
    }
    expect(redis?.ports).toBeUndefined();
    expect(redis?.command?.join(' ')).toMatch(/--appendonly yes --appendfsync always .*--aclfile/);
    // Every file it needs is shipped as an .example (the filled-in copies are git-ignored).
    // or made by a command the header gives.
    const header = readFileSync('deploy/compose.ha.yml', 'utf8');
    for (const f of [...(a?.env_file ?? []), ...Object.values(compose.secrets).map((x) => x.file)])
      expect(
        existsSync(join('deploy', `${f}.example`)) || header.includes(`> deploy/${f} `),
        `deploy/${f}: shipped as .example or made by a command in the header`,
      ).toBe(true);
    expect(b?.command).toEqual(a?.command);
    expect(b?.env_file).toEqual(a?.env_file);
    expect(a?.volumes?.[1]).not.toEqual(b?.volumes?.[1]);
    expect(a?.ports?.[0]).not.toEqual(b?.ports?.[0]);
    // The ACL file gives the relay exactly the rules the ACL test runs a relay under.
    expect(readFileSync('deploy/redis.acl.example', 'utf8')).toBe(
      `${DEFAULT_USER_ACL_LINE}\nuser macrobell-relay on >CHANGE-ME ${RELAY_ACL_RULES}\n` +
        `user ${OPERATOR_ACL_USER} on >CHANGE-ME-OPERATOR ${OPERATOR_ACL_RULES}\n`,
    );
    expect(readFileSync('docs/relay.md', 'utf8')).toContain(DEFAULT_USER_ACL_LINE);
    expect(readFileSync('docs/relay.md', 'utf8')).toContain(RELAY_ACL_RULES);
    expect(readFileSync('docs/relay.md', 'utf8')).toContain(OPERATOR_ACL_RULES);
  });

  it('deploy/compose.ha.yml: each node’s command runs as written on Redis with the shipped ACL file', async () => {
    const compose = load(readFileSync('deploy/compose.ha.yml', 'utf8')) as ComposeFile;
    const args = relayArgs(String(compose.services['relay-a']?.command));
    expect(args.join(' ')).toMatch(/--redis redis:\/\/redis:6379\/0/);
    const dir = tempDir('mb-compose-');
    const password = 'compose-test-password-1';
    writeFileSync(
      join(dir, 'redis.acl'),
      readFileSync('deploy/redis.acl.example', 'utf8')
        .replace('>CHANGE-ME', `>${password}`)
        .concat('user admin on >admin-test ~* &* +@all\n'),
    );
    writeFileSync(join(dir, 'redis-relay-password'), `${password}\n`);
    const db = await startRedis({
      extraArgs: ['--aclfile', join(dir, 'redis.acl')],
      probe: { username: 'admin', password: 'admin-test' },
    });
    try {
      const env = Object.fromEntries(
        readFileSync('deploy/relay.env.example', 'utf8')
          .split('\n')
          .filter((l) => /^[A-Z_]+=/.test(l))
          .map((l) => l.split('=') as [string, string]),
      );
      const out = await startsWith(
        runnable(args, db.url, { '--redis-password-file': join(dir, 'redis-relay-password') }),
        env,
      );
      expect(out).toMatch(
        /^relay store: redis 127\.0\.0\.1:\d+ \(durability: appendfsync always \(stated by --redis-durability aof-always; AOF on\)\)$/m,
      );
    } finally {
      await db.stop();
    }
  }, 60_000);

  it('deploy/macrobell-relay.service: ExecStart runs as written, interpreter included (SQLite)', async () => {
    const unit = readFileSync('deploy/macrobell-relay.service', 'utf8');
    const exec = /^ExecStart=(.*)$/m.exec(unit)?.[1] ?? '';
    const words = exec.trim().split(/\s+/);
    const at = words.indexOf('src/relay/cli.ts');
    // The interpreter as the unit names it (issue #43: /usr/bin/node is Debian's Node 20,
    // which failed at start), with Node 22 first on the PATH as the install step puts it.
    expect(words.slice(0, 2)).toEqual(['/usr/bin/env', 'node']);
    const child = spawn(
      words[0] as string,
      [...words.slice(1, at + 1), ...runnable(words.slice(at + 1), null)],
      {
        env: {
          ...process.env,
          PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
          MACROBELL_RELAY_SECRET: 'deploy-secret',
          MACROBELL_RELAY_TOKEN: 'deploy-token',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await waitFor(() => /^relay store: /m.test(out), 'the startup lines');
      expect(out).toMatch(/^relay store: sqlite /m);
    } finally {
      child.kill('SIGTERM');
      await exited(child);
    }
  }, 60_000);

  it('refuses a Node.js older than 22.12 with a line that says what to do', () => {
    expect(nodeTooOld('22.12.0', '/usr/local/bin/node')).toBeNull();
    expect(nodeTooOld('24.1.0', '/usr/local/bin/node')).toBeNull();
    const why = nodeTooOld('20.19.2', '/usr/bin/node');
    expect(why).toMatch(/needs Node\.js 22\.12 or later; \/usr\/bin\/node is 20\.19\.2/);
    expect(nodeTooOld('22.11.0', '/usr/bin/node')).not.toBeNull();
  });
});
