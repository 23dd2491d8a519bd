/** The shipped proxy configs: deploy/nginx.conf passes `nginx -t` on the installed nginx. */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';

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
});
