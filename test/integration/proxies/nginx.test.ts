/**
 * deploy/nginx.conf on the installed nginx, in front of a real relay on loopback: no log
 * line (access or error, at info level) holds the webhook secret or a feed token — for
 * good requests, over-limit bodies, malformed requests and the relay down — /metrics
 * tricks from a non-allowed address are refused, and a client's X-Forwarded-Host never
 * becomes the host of a feed link.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request as httpsRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { UserDirectory } from '../../../src/relay/users/users.js';
import { tempDir, waitFor } from '../relay/helpers.js';
import { freePort, logLines, selfSigned } from './proxy-setup.js';
import { rawRequest, request } from './raw-tls.js';

const NGINX = '/usr/sbin/nginx';
const SECRET = 'nginxHookSecret0123456789';
const FEED = 'mbf_nginxFeedToken0123456789';
const dir = tempDir('mb-nginx-logs-');
let relay: RunningRelay;
let nginx: ChildProcess;
let port = 0;
let alice = '';
const data = tempDir();
/**
 * A desk relay with feeds (the feed link needs no read of the service: the keys are only
 * there so the desk has some), and no --public-url.
 */
const relayOptions = (dataDir: string, relayPort?: number) => ({
  dataDir,
  secret: SECRET,
  token: 'nginx-token',
  port: relayPort,
  desk: {
    keys: { publicKey: 'nginx-pub', privateKey: 'nginx-priv' },
    authUrl: 'http://127.0.0.1:9/auth',
  },
  calendarFeed: { calendarUrl: 'http://127.0.0.1:9/calendar' },
});

beforeAll(async () => {
  if (!existsSync(NGINX)) throw new Error('nginx is needed: sudo apt-get install nginx');
  const db = openRelayDatabase(data);
  alice = new UserDirectory(db).add('alice').token;
  db.close();
  relay = await startRelay(relayOptions(data));
  port = await freePort();
  const { cert, key } = selfSigned(dir);
  const site = readFileSync('deploy/nginx.conf', 'utf8')
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${port} ssl http2;`)
    .replace(/\/etc\/letsencrypt\/live\/[^;]*fullchain\.pem/, cert)
    .replace(/\/etc\/letsencrypt\/live\/[^;]*privkey\.pem/, key)
    .replaceAll('/var/log/nginx/', `${dir}/`)
    // Both shipped upstreams are this one relay (failover.test.ts runs two nodes).
    .replaceAll('127.0.0.1:8787', `127.0.0.1:${relay.port}`)
    .replaceAll('127.0.0.1:8788', `127.0.0.1:${relay.port}`)
    // The test's requests come from 127.0.0.1: allow another address, so they are "outside".
    .replace('allow 127.0.0.1;', 'allow 192.0.2.1;');
  expect(site).toContain('macrobell_masked');
  const temp = (name: string) => `${name}_temp_path ${dir}/${name};`;
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/main-error.log info;\nevents {}\n` +
      `http {\n${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n')}\n` +
      `access_log ${dir}/http-access.log;\nerror_log ${dir}/http-error.log info;\n${site}\n}\n`,
  );
  nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
  await waitFor(async () => (await request(port, 'GET', '/healthz')) === 200, 'nginx to proxy');
}, 60_000);

afterAll(async () => {
  nginx?.kill('SIGTERM');
  await relay?.close();
});

const hook = `/hooks/${SECRET}`;
const body = (n: number) => Buffer.from(JSON.stringify({ type: 'x', pad: 'a'.repeat(n) }));

describe('deploy/nginx.conf', () => {
  it('passes webhooks and feeds through, logging neither secret in any case', async () => {
    expect(await request(port, 'POST', hook, { body: body(10) })).toBe(204);
    expect(await request(port, 'POST', hook, { body: body(2 * 1024 * 1024) })).toBe(413);
    expect(await request(port, 'GET', `/calendar/${FEED}.ics`)).toBe(404);
    // Malformed: rejected by nginx before any location matches.
    expect(
      await rawRequest(port, `POST ${hook} HTTP/1.1\r\nHost: relay.test\r\nBad Header\r\n\r\n`),
    ).toBe(400);
    expect(
      await rawRequest(
        port,
        `POST ${hook} HTTP/1.1\r\nHost: relay.test\r\nContent-Length: x\r\n\r\n`,
      ),
    ).toBe(400);
    expect(await rawRequest(port, `GET /calendar/${FEED}.ics HTTP/1.1\r\n\r\n`)).toBe(400); // no Host
    expect(await rawRequest(port, `POST ${hook}\x01 HTTP/1.1\r\nHost: relay.test\r\n\r\n`)).toBe(
      400,
    );
    expect(await request(port, 'POST', `/x/..${hook}`, { body: body(10) })).toBe(204);
    // The relay down: nginx's upstream errors.
    const relayPort = relay.port;
    await relay.close();
    expect(await request(port, 'POST', hook, { body: body(10) })).toBe(502);
    expect(await request(port, 'GET', `/calendar/${FEED}.ics`)).toBe(502);
    relay = await startRelay(relayOptions(data, relayPort));
    await waitFor(() => logLines(dir).some((l) => l.includes('502')), 'the 502s in the access log');
    const lines = logLines(dir);
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.filter((l) => l.includes('/hooks/<secret>')).length).toBeGreaterThan(3);
    for (const line of lines) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain(FEED);
    }
  }, 60_000);

  it('refuses /metrics, and tricks that would reach it, from a non-allowed address', async () => {
    for (const path of [
      '/metrics',
      '//metrics',
      '/x/../metrics',
      '/x/%2e%2e/metrics',
      '/%6Detrics',
      '/metrics?x=1',
    ])
      expect([path, await request(port, 'GET', path)]).toEqual([path, 403]);
    for (const path of ['/x\\..\\metrics', '/x%5C..%5Cmetrics', '\\metrics'])
      expect([path, await request(port, 'GET', path)]).toEqual([path, 400]);
    // nginx passes `//x/metrics` as is (its location is not /metrics): the relay refuses it.
    for (const path of ['//x/metrics', '//x//metrics', '//x/metrics?x=1'])
      expect([path, await request(port, 'GET', path)]).toEqual([path, 404]);
    expect(await request(port, 'GET', '/healthz')).toBe(200);
  });

  it('builds feed links from the Host the client called, never from its X-Forwarded-Host', async () => {
    const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
    try {
      const res = await httpsRequest(`https://127.0.0.1:${port}/calendar/feed-url`, {
        dispatcher,
        headers: {
          host: 'relay.test',
          authorization: `Bearer ${alice}`,
          'x-forwarded-host': 'attacker.example',
        },
      });
      expect(res.statusCode).toBe(200);
      const { url } = (await res.body.json()) as { url: string };
      expect(url).toMatch(/^https:\/\/relay\.test\/calendar\/mbf_[\w-]+\.ics$/);
    } finally {
      await dispatcher.close();
    }
  });
});
