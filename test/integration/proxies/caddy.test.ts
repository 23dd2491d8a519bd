/**
 * deploy/Caddyfile on the installed Caddy, in front of a real relay on loopback: bodies
 * over 1 MiB get the relay's 413 (no 502, no reset), no log line holds the webhook secret
 * or a feed token (the relay up or down), and /metrics tricks from outside are refused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { tempDir, waitFor } from '../relay/helpers.js';
import { freePort, logLines, selfSigned } from './proxy-setup.js';
import { rawRequest, request } from './raw-tls.js';

const CADDY = '/usr/bin/caddy';
const SECRET = 'caddyHookSecret0123456789';
const FEED = 'mbf_caddyFeedToken0123456789';
const dir = tempDir('mb-caddy-logs-');
let relay: RunningRelay;
let caddy: ChildProcess;
let port = 0;

beforeAll(async () => {
  if (!existsSync(CADDY)) throw new Error('caddy is needed: sudo apt-get install caddy');
  relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: 'caddy-token' });
  port = await freePort();
  const { cert, key } = selfSigned(dir);
  const shipped = readFileSync('deploy/Caddyfile', 'utf8');
  const site = shipped
    // The test's own global options first: no admin API, files in the temp folder.
    .replace(/^\{\n/m, `{\n\tadmin off\n\tstorage file_system ${dir}/data\n\tskip_install_trust\n`)
    .replace(
      'relay.example.com {',
      `https://relay.test:${port} {\n\tbind 127.0.0.1\n\ttls ${cert} ${key}`,
    )
    // Both shipped upstreams are this one relay (failover.test.ts runs two nodes).
    .replaceAll('127.0.0.1:8787', `127.0.0.1:${relay.port}`)
    .replaceAll('127.0.0.1:8788', `127.0.0.1:${relay.port}`)
    // The test's requests come from 127.0.0.1: make only another address "inside".
    .replace('not remote_ip 127.0.0.1 ::1', 'not remote_ip 192.0.2.1');
  expect(site).not.toBe(shipped);
  writeFileSync(join(dir, 'Caddyfile'), site);
  const log = createWriteStream(join(dir, 'caddy.log'));
  caddy = spawn(CADDY, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
    env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  caddy.stdout?.pipe(log);
  caddy.stderr?.pipe(log);
  await waitFor(async () => (await request(port, 'GET', '/healthz')) === 200, 'caddy to proxy');
}, 60_000);

afterAll(async () => {
  caddy?.kill('SIGTERM');
  await relay?.close();
});

const hook = `/hooks/${SECRET}`;
const body = (n: number) => Buffer.from(JSON.stringify({ type: 'x', pad: 'a'.repeat(n) }));

describe('deploy/Caddyfile', () => {
  it('answers 413 to 10 bodies over 1 MiB in a row, and passes a 1 MiB one', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 10; i++)
      answers.push(await request(port, 'POST', hook, { body: body(2 * 1024 * 1024) }));
    expect(answers).toEqual(Array(10).fill(413));
    expect(await request(port, 'POST', hook, { body: body(1024 * 1024 - 100) })).toBe(204);
  }, 60_000);

  it('logs neither secret, the relay up or down, even for requests cut mid-body', async () => {
    expect(await request(port, 'POST', hook, { body: body(10) })).toBe(204);
    expect(await request(port, 'GET', `/calendar/${FEED}.ics`)).toBe(404);
    // A body promised and never sent: Caddy logs the failed request (whatever it answers, or
    // nothing within the bound: what matters is that line, checked below).
    await rawRequest(
      port,
      `POST ${hook} HTTP/1.1\r\nHost: relay.test\r\nContent-Length: 100\r\n\r\n{`,
    );
    const relayPort = relay.port;
    await relay.close();
    // 502 (the dial refused) or 503 (its /livez health check already took the node out).
    expect([502, 503]).toContain(await request(port, 'POST', hook, { body: body(10) }));
    expect([502, 503]).toContain(await request(port, 'GET', `/calendar/${FEED}.ics`));
    relay = await startRelay({
      dataDir: tempDir(),
      secret: SECRET,
      token: 'caddy-token',
      port: relayPort,
    });
    await waitFor(
      () =>
        logLines(dir).filter((l) => /connection refused|no upstreams available/.test(l)).length >=
        2,
      'the upstream errors in the log',
    );
    // Back in Caddy's pool once its health check sees the node again.
    await waitFor(async () => (await request(port, 'GET', '/healthz')) === 200, 'the node back');
    const lines = logLines(dir);
    for (const line of lines) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain(FEED);
    }
  }, 60_000);

  it('lets go of connections that send nothing (no handshake, no request line)', async () => {
    /** Resolves with the seconds until Caddy closed a connection that sent `first`. */
    const heldFor = (first: Buffer | null) =>
      new Promise<number>((resolve, reject) => {
        const started = performance.now();
        const socket = connect({ port, host: '127.0.0.1' }, () => {
          if (first) socket.write(first);
        });
        socket.on('error', () => {});
        socket.on('close', () => resolve((performance.now() - started) / 1000));
        // A bound, far past the shipped 10 s: the old file held them for 5 minutes.
        setTimeout(() => reject(new Error('Caddy still holds the idle connection')), 40_000);
      });
    // Plain silence, and half a TLS ClientHello that never finishes.
    const closed = await Promise.all([heldFor(null), heldFor(Buffer.from([0x16, 0x03, 0x01]))]);
    for (const s of closed) expect(s).toBeGreaterThan(5);
  }, 60_000);

  it('refuses /metrics, and tricks that would reach it, from a non-allowed address', async () => {
    for (const path of ['/metrics', '//metrics', '/x/../metrics', '/%6Detrics', '/METRICS'])
      expect([path, await request(port, 'GET', path)]).toEqual([path, 403]);
    // `//x/metrics` reaches the relay as is (not /metrics to Caddy): the relay refuses it.
    for (const path of ['/metrics/', '//x/metrics', '//x//metrics', '//x/metrics?x=1'])
      expect([path, await request(port, 'GET', path)]).toEqual([path, 404]);
    // Caddy forwards "\" as %5C, a path the relay does not know; raw "\" the relay refuses.
    expect(await request(port, 'GET', '/x\\..\\metrics')).toBe(404);
    expect(await request(port, 'GET', '\\metrics')).toBe(400); // not a path: Caddy refuses it
    expect(await request(port, 'GET', '/healthz')).toBe(200);
  });
});
