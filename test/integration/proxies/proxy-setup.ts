/**
 * The shipped proxy configs on loopback for the proxy tests: a port, a throw-away
 * certificate, deploy/nginx.conf and deploy/Caddyfile with only their ports, certificate and
 * log folder templated, and every log line under a folder.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * A port below the kernel's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range), free
 * now: a node killed and started again must get its port back, and an ephemeral one may
 * meanwhile be the local end of the proxy's connection to the other node.
 */
export async function stablePort(): Promise<number> {
  const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
    .trim()
    .split(/\s+/)
    .map(Number);
  const top = Math.min(low ?? 32768, 32768);
  for (let i = 0; i < 200; i++) {
    const port = 10_000 + Math.floor(Math.random() * (top - 10_000));
    const free = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port below the ephemeral range');
}

/** For relay.test and 127.0.0.1 (a client given the IP, NODE_EXTRA_CA_CERTS, trusts it). */
export function selfSigned(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1',
    '-subj', '/CN=relay.test', '-addext', 'subjectAltName=DNS:relay.test,IP:127.0.0.1',
    '-keyout', key, '-out', cert], { stdio: 'ignore' }); // prettier-ignore
  return { cert, key };
}

/** Every line of every *.log file in the folder. */
export function logLines(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean));
}

/** A shipped proxy on `port`, in front of the two relay nodes on `nodes` (8787 and 8788 shipped). */
export type ShippedProxy = (
  dir: string,
  port: number,
  nodes: [number, number],
  tls: { cert: string; key: string },
  /** The site's name (Caddy matches it): relay.test, or 127.0.0.1 for clients given the IP. */
  site?: string,
) => Promise<ChildProcess>;

export const shippedNginx: ShippedProxy = async (dir, port, [a, b], { cert, key }) => {
  if (!existsSync('/usr/sbin/nginx'))
    throw new Error('nginx is needed: sudo apt-get install nginx');
  const site = readFileSync('deploy/nginx.conf', 'utf8')
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${port} ssl http2;`)
    .replace(/\/etc\/letsencrypt\/live\/[^;]*fullchain\.pem/, cert)
    .replace(/\/etc\/letsencrypt\/live\/[^;]*privkey\.pem/, key)
    .replaceAll('/var/log/nginx/', `${dir}/`)
    .replace('127.0.0.1:8787', `127.0.0.1:${a}`)
    .replace('127.0.0.1:8788', `127.0.0.1:${b}`);
  expect(site).not.toMatch(/:878[78]/);
  const temp = (name: string) => `${name}_temp_path ${dir}/${name};`;
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/main-error.log;\nevents {}\n` +
      `http {\n${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n')}\n` +
      `access_log ${dir}/http-access.log;\n${site}\n}\n`,
  );
  return spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
};

export const shippedCaddy: ShippedProxy = async (
  dir,
  port,
  [a, b],
  { cert, key },
  name = 'relay.test',
) => {
  if (!existsSync('/usr/bin/caddy')) throw new Error('caddy is needed: sudo apt-get install caddy');
  const site = readFileSync('deploy/Caddyfile', 'utf8')
    .replace(/^\{\n/m, `{\n\tadmin off\n\tstorage file_system ${dir}/data\n\tskip_install_trust\n`)
    .replace(
      'relay.example.com {',
      `https://${name}:${port} {\n\tbind 127.0.0.1\n\ttls ${cert} ${key}`,
    )
    .replace('127.0.0.1:8787', `127.0.0.1:${a}`)
    .replace('127.0.0.1:8788', `127.0.0.1:${b}`);
  expect(site).not.toMatch(/:878[78]/);
  writeFileSync(join(dir, 'Caddyfile'), site);
  const log = createWriteStream(join(dir, 'caddy.log'));
  const child = spawn(
    '/usr/bin/caddy',
    ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'],
    {
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
};
