/**
 * The shipped proxy configs in front of two relay nodes on one Redis: deploy/nginx.conf and
 * deploy/Caddyfile, only their ports, certificate and log folder templated. Webhooks go in
 * through the proxy while each node in turn is killed with SIGKILL and started again, and a
 * standard EventSource client (event-source.ts: a non-200 answer closes it for good, a
 * broken stream is resumed with Last-Event-ID) reads through the same proxy. Every
 * acknowledged webhook reaches it exactly once, and it never fails for good.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { exited, spawnRelay, tempDir, waitFor, type RelayProcess } from '../relay/helpers.js';
import { startRedis } from '../relay/redis-server.js';
import { StandardEventSource } from './event-source.js';
import { freePort, selfSigned } from './proxy-setup.js';

const SECRET = 'failoverHookSecret0123456789';
const TOKEN = 'failover-desktop-token';
const WEBHOOKS = 240;
const cleanups: (() => Promise<unknown>)[] = [];
// Each cleanup bounded, so one that hangs never leaves the nodes and Redis running.
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse())
    await Promise.race([c().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
}, 120_000);

/**
 * A port below the kernel's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range), free
 * now: a node killed and started again must get its port back, and an ephemeral one may
 * meanwhile be the local end of the proxy's connection to the other node.
 */
async function stablePort(): Promise<number> {
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

/** A relay node as a process on a fixed port, so it can be killed and started again there. */
async function node(port: number, redisUrl: string) {
  const data = tempDir('mb-failover-node-');
  const start = () =>
    spawnRelay(['--port', String(port), '--data', data, '--redis', redisUrl], {
      MACROBELL_RELAY_SECRET: SECRET,
      MACROBELL_RELAY_TOKEN: TOKEN,
    });
  const n = { proc: await start(), port };
  cleanups.push(async () => {
    n.proc.child.kill('SIGKILL');
    await exited(n.proc.child);
  });
  return {
    port,
    async kill() {
      n.proc.child.kill('SIGKILL');
      await exited(n.proc.child);
    },
    async restart() {
      n.proc = (await start()) as RelayProcess;
    },
  };
}

type Proxy = (
  dir: string,
  port: number,
  nodes: [number, number],
  tls: { cert: string; key: string },
) => Promise<ChildProcess>;

const nginx: Proxy = async (dir, port, [a, b], { cert, key }) => {
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

const caddy: Proxy = async (dir, port, [a, b], { cert, key }) => {
  if (!existsSync('/usr/bin/caddy')) throw new Error('caddy is needed: sudo apt-get install caddy');
  const site = readFileSync('deploy/Caddyfile', 'utf8')
    .replace(/^\{\n/m, `{\n\tadmin off\n\tstorage file_system ${dir}/data\n\tskip_install_trust\n`)
    .replace(
      'relay.example.com {',
      `https://relay.test:${port} {\n\tbind 127.0.0.1\n\ttls ${cert} ${key}`,
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

describe.each([
  ['deploy/nginx.conf', nginx],
  ['deploy/Caddyfile', caddy],
])('%s in front of two relay nodes', (_name, proxy) => {
  it('a standard EventSource gets every acknowledged webhook once while each node is killed and restarted', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const [pa, pb] = [await stablePort(), await stablePort()];
    const port = await freePort();
    const nodes = [await node(pa, redis.url), await node(pb, redis.url)] as const;
    const dir = tempDir('mb-failover-proxy-');
    const child = await proxy(dir, port, [pa, pb], selfSigned(dir));
    cleanups.push(async () => {
      child.kill('SIGTERM');
      // Caddy waits for open streams to end on SIGTERM: bounded, then SIGKILL.
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited(child);
      clearTimeout(timer);
    });
    const agent = new Agent({
      connect: {
        ca: readFileSync(join(dir, 'cert.pem')),
        servername: 'relay.test',
        rejectUnauthorized: false,
      },
    });
    cleanups.push(() => agent.close());
    const base = `https://127.0.0.1:${port}`;
    const host = 'relay.test';
    await waitFor(async () => {
      const r = await request(`${base}/healthz`, { headers: { host }, dispatcher: agent }).catch(
        () => null,
      );
      await r?.body.dump();
      return r?.statusCode === 200;
    }, 'the proxy to answer');

    const logTail = () =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.log'))
        .map((f) => readFileSync(join(dir, f), 'utf8').split('\n').slice(-8).join('\n'))
        .join('\n');
    const es = new StandardEventSource(
      `${base}/events`,
      { host, authorization: `Bearer ${TOKEN}` },
      agent,
    );
    cleanups.push(async () => es.close());
    await waitFor(() => es.readyState === StandardEventSource.OPEN, 'the stream to open');

    /** As the service does: retried until acknowledged (the relay stores a body once). */
    const send = async (n: number) => {
      let last = '';
      for (let attempt = 0; attempt < 50; attempt++) {
        const r = await request(`${base}/hooks/${SECRET}`, {
          method: 'POST',
          headers: { host, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'failover_probe', n }),
          dispatcher: agent,
        }).catch(() => null);
        last = r ? `${r.statusCode} ${await r.body.text()}` : 'no answer';
        if (r?.statusCode === 204) return attempt;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error(`webhook ${n} was never acknowledged (last: ${last}): ${logTail()}`);
    };
    const faults: Partial<Record<number, () => Promise<void>>> = {
      40: () => nodes[0].kill(),
      88: () => nodes[0].restart(),
      132: () => nodes[1].kill(),
      180: () => nodes[1].restart(),
    };
    let retried = 0;
    let faulted = 0;
    for (let n = 0; n < WEBHOOKS; n += 4) {
      const fault = faults[n];
      if (fault) faulted++;
      await fault?.();
      const attempts = await Promise.all([n, n + 1, n + 2, n + 3].map(send));
      retried += attempts.reduce((s, x) => s + x, 0);
    }

    expect(faulted).toBe(4);
    const seen = () =>
      es.events
        .filter((e) => e.type === 'notification')
        .map((e) => (JSON.parse(e.data) as { n: number }).n);
    await waitFor(
      () => seen().length >= WEBHOOKS || es.failure !== null,
      'every webhook at the client',
      60_000,
    );
    expect(es.failure, logTail()).toBeNull();
    expect(es.readyState).not.toBe(StandardEventSource.CLOSED);
    expect(es.events.filter((e) => e.type === 'reset')).toEqual([]);
    const got = seen();
    expect(got).toHaveLength(WEBHOOKS); // none duplicated
    expect([...got].sort((x, y) => x - y)).toEqual(Array.from({ length: WEBHOOKS }, (_, i) => i)); // none lost
    // The stream's node was killed at least once: the client resumed through the proxy.
    expect(es.opened).toBeGreaterThanOrEqual(2);
    // Few webhooks needed the sender's retry: the proxy handed them to the live node.
    expect(retried).toBeLessThan(WEBHOOKS / 4);
  }, 180_000);
});
