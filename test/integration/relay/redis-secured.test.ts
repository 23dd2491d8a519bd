// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * The relay on a Redis secured as docs/relay.md says: a password from the environment or
 * a file (never in `ps` or the logs), TLS with a private CA, and the documented ACL user
 * limited to the relay's commands and keys — under which ingest, the stream, the desk's
 * users and the calendar feeds all work.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_USER_ACL_LINE, RELAY_ACL_RULES } from '../../../src/relay/redis/redis-acl.js';
import { RedisUserStore } from '../../../src/relay/users/redis-users.js';
import { startRelay } from '../../../src/relay/server.js';
import { RedisAdminStore } from '../../../src/relay/desk-ops/admin/admin-store.js';
import { startSimulator } from '../../../src/simulator/index.js';
import {
  exited,
  openSseReader,
  post,
  spawnRelay,
  tempDir,
  waitFor,
  type RelayProcess,
} from './helpers.js';
import { startRedis, type StartRedisOptions, type TestRedis } from './redis-server.js';
import { nodeArgs } from '../../support/spawn-cli.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function redis(opts: StartRedisOptions): Promise<TestRedis> {
  const r = await startRedis({ durable: true, ...opts });
  cleanups.push(() => r.stop());
  return r;
}

const RELAY_ENV = {
  MACROBELL_RELAY_SECRET: 'secured-secret',
  MACROBELL_RELAY_TOKEN: 'secured-token',
};

async function relayCli(args: string[], env: NodeJS.ProcessEnv): Promise<RelayProcess> {
  const relay = await spawnRelay(['--port', '0', '--data', tempDir(), ...args], {
    ...RELAY_ENV,
    ...env,
  });
  cleanups.push(async () => {
    relay.child.kill('SIGTERM');
    await exited(relay.child);
  });
  await waitFor(() => /^relay store: /m.test(relay.stdout()), 'the startup lines');
  return relay;
}

/** The relay's exit code and stderr when it cannot start. */
function relayRefuses(args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(
    process.execPath,
    [...nodeArgs('src/relay/cli.ts'), '--port', '0', '--data', tempDir(), ...args],
    { env: { ...process.env, ...RELAY_ENV, ...env }, encoding: 'utf8', timeout: 30_000 },
  );
  return { code: r.status, stderr: r.stderr, stdout: r.stdout };
}

const ingestOk = async (url: string) =>
  (await post(`${url}/hooks/secured-secret`, '{"type":"secured_probe"}')).status;

describe('Redis password', () => {
  it('comes from the environment or a file: never in ps, never in the logs', async () => {
    const password = `pw-${randomBytes(12).toString('hex')}`;
    const r = await redis({ extraArgs: ['--requirepass', password], probe: { password } });
    const relay = await relayCli(['--redis', r.url], { MACROBELL_REDIS_PASSWORD: password });
    expect(await ingestOk(relay.url)).toBe(204);
    const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(ps).toContain(`--redis ${r.url}`);
    expect(ps).not.toContain(password);
    expect(relay.stdout() + relay.stderr()).not.toContain(password);

    const file = join(tempDir(), 'redis-password');
    writeFileSync(file, `${password}\n`, { mode: 0o600 });
    const fromFile = await relayCli(['--redis', r.url, '--redis-password-file', file], {});
    expect(await ingestOk(fromFile.url)).toBe(204);

    // The desk's users on the same Redis, by the CLI, with the password from the environment.
    const users = spawnSync(
      process.execPath,
      [...nodeArgs('src/relay/cli.ts'), 'users', 'add', 'dora', '--redis', r.url],
      { env: { ...process.env, MACROBELL_REDIS_PASSWORD: password }, encoding: 'utf8' },
    );
    expect(users.status, users.stderr).toBe(0);
    expect(users.stdout + users.stderr).not.toContain(password);

    const without = relayRefuses(['--redis', r.url], { MACROBELL_REDIS_PASSWORD: '' });
    expect(without.code).toBe(1);
    expect(without.stderr.trim().split('\n')).toEqual([expect.stringMatching(/NOAUTH/)]);
  }, 90_000);

  it('inside --redis still works, with a warning that never shows it', async () => {
    const password = `pw-${randomBytes(12).toString('hex')}`;
    const r = await redis({ extraArgs: ['--requirepass', password], probe: { password } });
    const inUrl = r.url.replace('redis://', `redis://:${password}@`);
    const relay = await relayCli(['--redis', inUrl], {});
    expect(await ingestOk(relay.url)).toBe(204);
    expect(relay.stdout()).toMatch(/Redis password is inside --redis.*MACROBELL_REDIS_PASSWORD/);
    expect(relay.stdout() + relay.stderr()).not.toContain(password);
  }, 60_000);
});

/** A throw-away CA and a server certificate for 127.0.0.1 it signed. */
function throwAwayCa(): { dir: string; ca: string; cert: string; key: string } {
  const dir = tempDir('mb-redis-tls-');
  const at = (f: string) => join(dir, f);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=macrobell-test-ca',
    '-keyout', at('ca.key'), '-out', at('ca.pem')); // prettier-ignore
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1',
    '-keyout', at('server.key'), '-out', at('server.csr')); // prettier-ignore
  writeFileSync(at('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  ssl('x509', '-req', '-in', at('server.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'),
    '-CAcreateserial', '-days', '1', '-extfile', at('san.ext'), '-out', at('server.pem')); // prettier-ignore
  return { dir, ca: at('ca.pem'), cert: at('server.pem'), key: at('server.key') };
}

describe('Redis over TLS', () => {
  it('connects to rediss:// with the private CA given by --redis-ca, and refuses without it', async () => {
    const pki = throwAwayCa();
    const r = await redis({
      tls: true,
      extraArgs: ['--tls-cert-file', pki.cert, '--tls-key-file', pki.key,
        '--tls-ca-cert-file', pki.ca, '--tls-auth-clients', 'no'], // prettier-ignore
      probe: { tls: { ca: readFileSync(pki.ca) } },
    });
    expect(r.url).toMatch(/^rediss:\/\//);
    const relay = await relayCli(['--redis', r.url, '--redis-ca', pki.ca], {});
    expect(relay.stdout()).toMatch(
      /relay store: redis 127\.0\.0\.1:\d+ \(durability: appendfsync always\)/,
    );
    expect(await ingestOk(relay.url)).toBe(204);
    const untrusted = relayRefuses(['--redis', r.url], {});
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(/self[- ]signed certificate|unable to verify/i);
    const plainUrl = relayRefuses(
      ['--redis', r.url.replace('rediss:', 'redis:'), '--redis-ca', pki.ca],
      {},
    );
    expect(plainUrl.code).toBe(1);
    expect(plainUrl.stderr).toMatch(/needs a rediss:\/\/ URL/);
  }, 90_000);
});

describe('the documented ACL user', () => {
  it('is enough for ingest, the stream, the desk users, the calendar feeds and desk operations', async () => {
    const relayPw = `relay-${randomBytes(8).toString('hex')}`;
    const adminPw = `admin-${randomBytes(8).toString('hex')}`;
    const r = await redis({
      // One argv word per rule word: redis-server joins them into the config line.
      extraArgs: [
        '--user', 'admin', 'on', `>${adminPw}`, '~*', '&*', '+@all',
        '--user', 'macrobell-relay', 'on', `>${relayPw}`, ...RELAY_ACL_RULES.split(' '),
        '--user', ...DEFAULT_USER_ACL_LINE.split(' ').slice(1),
      ], // prettier-ignore
      probe: { username: 'admin', password: adminPw },
    });
    const auth = { username: 'macrobell-relay', password: relayPw };
    const users = await RedisUserStore.open({ url: r.url, auth });
    cleanups.push(() => users.close());
    const ada = (await users.add('ada')).token;
    const sim = await startSimulator({ seed: 4, autoplay: false, speed: 0, log: () => undefined });
    cleanups.push(() => sim.close());
    const relay = await startRelay({
      dataDir: tempDir(),
      secret: 'secured-secret',
      token: 'secured-token',
      redis: { url: r.url, auth, durability: 'aof-always' },
      desk: {
        keys: { publicKey: sim.clientId, privateKey: sim.clientSecret },
        authUrl: sim.authUrl,
        issueServiceTokens: true,
      },
      calendarFeed: { calendarUrl: sim.calendarUrl },
    });
    cleanups.push(() => relay.close());
    expect(relay.durability).toMatch(
      /^appendfsync always \(stated by --redis-durability aof-always/,
    );
    const stream = await openSseReader(`${relay.url}/events`, {
      authorization: `Bearer ${ada}`,
      'last-event-id': '0',
      'x-macrobell-desktop': 'ada-desktop-1',
      'x-macrobell-app-version': '0.1.0',
      'x-macrobell-os': 'linux',
    });
    cleanups.push(async () => stream.close());
    expect(await ingestOk(relay.url)).toBe(204);
    await waitFor(
      () => stream.frames.some((f) => f.event === 'notification'),
      'the streamed event',
    );
    const call = async (path: string, method: 'GET' | 'PUT' | 'POST', body?: unknown) => {
      const res = await request(`${relay.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${ada}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.statusCode, text: await res.body.text() };
    };
    const feed = await call('/calendar/feed-url', 'GET');
    expect(feed.status, feed.text).toBe(200);
    const eventId = [...sim.state.eventDates.values()][0]?.eventId as string;
    const put = await call('/watchlist', 'PUT', { eventIds: [eventId] });
    expect(put.status, put.text).toBe(200);
    const ics = await request(
      `${relay.url}${new URL((JSON.parse(feed.text) as { url: string }).url).pathname}`,
    );
    expect(ics.statusCode).toBe(200);
    await ics.body.dump();
    const page = await call('/events/page?after=0', 'GET');
    expect(page.status).toBe(200);
    // Desk operations: presence, an admin, the admin view.
    const lastId = (JSON.parse(page.text) as { events: { id: string }[] }).events.at(-1)?.id;
    const ack = await call('/presence', 'POST', { desktop: 'ada-desktop-1', appliedId: lastId });
    expect(ack.status, ack.text).toBe(204);
    const admins = await RedisAdminStore.open({ url: r.url, auth });
    cleanups.push(() => admins.close());
    const lead = (await admins.add('lead')).token;
    const view = await request(`${relay.url}/admin`, {
      headers: { authorization: `Bearer ${lead}`, accept: 'application/json' },
    });
    const viewText = await view.body.text();
    expect(view.statusCode, viewText).toBe(200);
    expect(viewText).toContain('ada-desktop-1');
    // A replay: its request goes on the control stream (XADD), answers read back (HGETALL).
    const replay = await request(`${relay.url}/admin/replay`, {
      method: 'POST',
      headers: { authorization: `Bearer ${lead}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'ada', since: '1h' }),
    });
    const replayText = await replay.body.text();
    expect(replay.statusCode, replayText).toBe(200);
    expect(JSON.parse(replayText)).toMatchObject({ user: 'ada', events: 1 });
    const token = await request(`${relay.url}/token`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ada}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'scope=calendar',
    });
    expect(token.statusCode).toBe(200);
    await token.body.dump();
    await users.revoke('ada');
    expect((await call('/events/page?after=0', 'GET')).status).toBe(401);
    const trim = await relay.log.trim(7 * 86_400_000);
    expect(trim).toBe(0);
    // And nothing more: other keys, admin commands and pub/sub are refused.
    const asRelay = new Redis(r.url, { ...auth, lazyConnect: true });
    cleanups.push(async () => asRelay.disconnect());
    await asRelay.connect();
    await expect(asRelay.get('other-app:key')).rejects.toThrow(/NOPERM/);
    await expect(asRelay.flushall()).rejects.toThrow(/NOPERM/);
    await expect(asRelay.config('SET', 'appendfsync', 'no')).rejects.toThrow(/NOPERM/);
    await expect(asRelay.config('GET', 'masterauth')).rejects.toThrow(/NOPERM/);
    await expect(asRelay.publish('macrobell:{relay}:x', 'hi')).rejects.toThrow(/NOPERM/);
  }, 90_000);
});
