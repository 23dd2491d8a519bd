/**
 * A Redis restart keeps the desk: a real redis-server loaded with the shipped ACL file
 * (deploy/redis.acl.example) and `appendonly yes` + `appendfsync always`, a relay writing
 * through its scripts and transactions (propagated to the append-only file as MULTI/EXEC),
 * `kill -9` of Redis, a restart — and the stream, the traders, the admins, the watch
 * lists, the feed URL and the dedup keys are all there, with no NOPERM in Redis's log.
 *
 * The control: the bare `user default off` line the ACL file used to ship makes Redis 7.0
 * refuse every MULTI/EXEC while replaying (redis/redis#14541) and come back without the
 * desk. The relay then says so — /healthz 503 with the reason, one chat post for the desk —
 * and a trader the emptied store no longer knows gets 503 store_lost, never 401 "revoked";
 * `relay store accept-loss` clears it (and the chat hears that once).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_USER_ACL_LINE } from '../../../src/relay/redis/redis-acl.js';
import { RedisUserStore } from '../../../src/relay/users/redis-users.js';
import { RedisAdminStore } from '../../../src/relay/desk-ops/admin/admin-store.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { startSimulator } from '../../../src/simulator/index.js';
import { post, tempDir, waitFor } from './helpers.js';
import { startChatReceiver } from './chat-receiver.js';
import { startShippedAclRedis, type TestRedis } from './redis-server.js';
import { nodeArgs } from '../../support/spawn-cli.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const SECRET = 'aof-secret';
const RELAY_PW = 'aof-relay-password-1';
const ADMIN = { username: 'admin', password: 'aof-admin-password-1' };
const AUTH = { username: 'macrobell-relay', password: RELAY_PW };
const WEBHOOKS = 60;

/** redis-server with the shipped ACL file (or the old default line), stopped after the test. */
async function aclRedis(defaultLine: string): Promise<TestRedis & { log: () => string }> {
  expect(readFileSync('deploy/redis.acl.example', 'utf8').split('\n')[0]).toBe(
    DEFAULT_USER_ACL_LINE,
  );
  const r = await startShippedAclRedis(RELAY_PW, { defaultLine, admin: ADMIN });
  cleanups.push(() => r.stop());
  return r;
}

/** A loopback chat receiver, closed after the test. */
async function chat(): Promise<{ url: string; texts: string[] }> {
  const receiver = await startChatReceiver();
  cleanups.push(() => receiver.close());
  return receiver;
}

async function desk(r: TestRedis, chatUrl: string) {
  const sim = await startSimulator({ seed: 7, autoplay: false, speed: 0, log: () => undefined });
  cleanups.push(() => sim.close());
  const relay: RunningRelay = await startRelay({
    dataDir: tempDir('mb-aof-node-'),
    secret: SECRET,
    token: 'aof-legacy-token',
    nodeName: 'node-a',
    redis: { url: r.url, auth: AUTH, generationCheckMs: 200, durability: 'aof-always' },
    desk: { keys: { publicKey: sim.clientId, privateKey: sim.clientSecret }, authUrl: sim.authUrl },
    calendarFeed: { calendarUrl: sim.calendarUrl },
    deskAlerts: { webhookUrl: chatUrl, checkEveryMs: 0 },
  });
  cleanups.push(() => relay.close());
  const users = await RedisUserStore.open({ url: r.url, auth: AUTH });
  cleanups.push(() => users.close());
  const admins = await RedisAdminStore.open({ url: r.url, auth: AUTH });
  cleanups.push(() => admins.close());
  // any three events: their ids do not depend on the date
  const eventIds = [...sim.state.events.keys()].slice(0, 3);
  return { relay, users, admins, eventIds };
}

const call = async (url: string, token: string, method = 'GET', body?: unknown) => {
  const res = await request(url, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, json: (await res.body.json().catch(() => null)) as never };
};

/**
 * A trader's read once the relay's connections are all back: its first answer other than
 * the "reconnecting, retry soon" 503 (store_unavailable) a connection not yet back gives.
 */
async function traderAnswers(url: string, token: string): Promise<string[]> {
  const seen: string[] = [];
  await waitFor(async () => {
    const r = await call(url, token);
    const answer = `${(r.json as { error?: string } | null)?.error ?? r.status}`;
    if (r.status === 503 && answer === 'store_unavailable') return false;
    seen.push(answer);
    return true;
  }, 'a trader read to answer something other than "retry soon"');
  return seen;
}

/** Everything the desk writes: users (scripts), admins (MULTI), lists, feed URL, webhooks. */
async function fill(d: Awaited<ReturnType<typeof desk>>) {
  const ada = (await d.users.add('ada')).token;
  const bo = (await d.users.add('bo')).token;
  await d.users.revoke('bo');
  const lead = (await d.admins.add('lead')).token;
  const put = await call(`${d.relay.url}/watchlist`, ada, 'PUT', { eventIds: d.eventIds });
  expect(put.status).toBe(200);
  const feed = await call(`${d.relay.url}/calendar/feed-url`, ada);
  expect(feed.status).toBe(200);
  const statuses = await Promise.all(
    Array.from({ length: WEBHOOKS }, (_, n) =>
      post(`${d.relay.webhookUrl}`, JSON.stringify({ type: 'aof_probe', n })).then((p) => p.status),
    ),
  );
  expect(statuses.filter((s) => s === 204)).toHaveLength(WEBHOOKS);
  return { ada, bo, lead, feedUrl: (feed.json as { url: string }).url };
}

/** The stream's bodies as the relay pages them, with the trader's token. */
async function streamed(relayUrl: string, token: string): Promise<number[]> {
  const res = await call(`${relayUrl}/events/page?after=0&limit=1000`, token);
  expect(res.status).toBe(200);
  return (res.json as { events: { body: { n: number } }[] }).events.map((e) => e.body.n);
}

async function killAndRestart(r: TestRedis, relay: RunningRelay, wipe = false): Promise<void> {
  await r.kill('SIGKILL');
  await waitFor(() => relay.log.health().reason !== undefined, 'the relay to see Redis gone');
  if (wipe) rmSync(join(r.dir, 'appendonlydir'), { recursive: true, force: true });
  await r.restart();
}

const healthz = async (url: string) => {
  const res = await request(`${url}/healthz`);
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
};

describe('Redis with the shipped ACL file, killed and restarted', () => {
  it('replays its append-only file: the stream, users, admins, lists and dedup keys survive', async () => {
    const r = await aclRedis(DEFAULT_USER_ACL_LINE);
    const { url: chatUrl, texts } = await chat();
    const d = await desk(r, chatUrl);
    const t = await fill(d);
    // The relay's scripts and the admin store's transactions reached the AOF as MULTI/EXEC.
    const aof = readdirSync(join(r.dir, 'appendonlydir'))
      .map((f) => readFileSync(join(r.dir, 'appendonlydir', f), 'latin1'))
      .join('');
    expect(aof.match(/\r\nMULTI\r\n/gi)?.length ?? 0).toBeGreaterThan(3);

    await killAndRestart(r, d.relay);
    await waitFor(async () => (await healthz(d.relay.url)).status === 200, 'healthz ok again');

    expect(r.log()).not.toMatch(/NOPERM|CRITICAL/);
    expect((await streamed(d.relay.url, t.ada)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: WEBHOOKS }, (_, n) => n),
    );
    expect((await d.users.list()).map((u) => [u.name, u.revokedAt === null])).toEqual([
      ['ada', true],
      ['bo', false],
    ]);
    expect((await call(`${d.relay.url}/events/page?after=0`, t.bo)).status).toBe(401);
    expect(await d.admins.authenticate(t.lead)).toBe('lead');
    const list = await call(`${d.relay.url}/watchlist`, t.ada);
    expect((list.json as { eventIds: string[] }).eventIds).toEqual(d.eventIds);
    const feed = await call(`${d.relay.url}/calendar/feed-url`, t.ada);
    expect((feed.json as { url: string }).url).toBe(t.feedUrl);
    // Dedup keys: the same bodies again are acknowledged and not stored twice.
    for (const n of [0, 17, WEBHOOKS - 1])
      expect(
        (await post(d.relay.webhookUrl, JSON.stringify({ type: 'aof_probe', n }))).status,
      ).toBe(204);
    const asAdmin = new Redis(r.url, { ...ADMIN, lazyConnect: true });
    cleanups.push(async () => asAdmin.disconnect());
    await asAdmin.connect();
    expect(await asAdmin.xlen('macrobell:{relay}:events')).toBe(WEBHOOKS);
    // No loss was reported anywhere.
    expect((await healthz(d.relay.url)).body).not.toHaveProperty('storeLostAt');
    await d.relay.checkDeskAlerts();
    expect(texts).toEqual([]);
  }, 90_000);
});

describe('a store that comes back without the desk', () => {
  it('with the bare `user default off` (the old line): NOPERM at load, and the relay says the store is lost', async () => {
    const r = await aclRedis('user default off');
    const { url: chatUrl, texts } = await chat();
    const d = await desk(r, chatUrl);
    const t = await fill(d);
    await killAndRestart(r, d.relay);
    // Redis's own bug, as the issue saw it: every MULTI/EXEC refused while loading.
    await waitFor(() => /NOPERM ACLs rules changed/.test(r.log()), 'NOPERM in the Redis log');
    await waitFor(async () => {
      const h = await healthz(d.relay.url);
      return h.status === 503 && typeof h.body.storeLostAt === 'string';
    }, 'healthz to report the lost store');
    expect(String((await healthz(d.relay.url)).body.reason)).toMatch(
      /older than it was|without the desk's data/,
    );
    // The trader's token is not "revoked": the store cannot tell.
    expect(await traderAnswers(`${d.relay.url}/events/page?after=0`, t.ada)).toEqual([
      'store_lost',
    ]);
    await d.relay.checkDeskAlerts();
    await d.relay.checkDeskAlerts();
    expect(texts).toEqual([
      expect.stringMatching(/^:rotating_light: The desk's store lost its data/),
    ]);
  }, 90_000);

  it('an append-only file removed: healthz, chat once, store_lost for traders; accept-loss clears it', async () => {
    const r = await aclRedis(DEFAULT_USER_ACL_LINE);
    const { url: chatUrl, texts } = await chat();
    const d = await desk(r, chatUrl);
    const t = await fill(d);
    await killAndRestart(r, d.relay, true);
    await waitFor(
      async () => (await healthz(d.relay.url)).status === 503 && d.relay.log.health().storeLost,
      'healthz to report the lost store',
    );
    const h = await healthz(d.relay.url);
    expect(h.body).toMatchObject({ ok: false, backend: 'redis' });
    expect(String(h.body.reason)).toMatch(/without the desk's data .*relay store accept-loss/);
    // Ingest goes on (the service's webhooks are kept); traders get store_lost, not 401.
    expect((await post(d.relay.webhookUrl, '{"type":"after_loss"}')).status).toBe(204);
    expect(await traderAnswers(`${d.relay.url}/events/page?after=0`, t.ada)).toEqual([
      'store_lost',
    ]);
    for (let i = 0; i < 3; i++) await d.relay.checkDeskAlerts();
    expect(texts).toEqual([
      expect.stringMatching(
        /^:rotating_light: The desk's store lost its data \(found by relay node-a\)/,
      ),
    ]);

    const cli = spawnSync(
      process.execPath,
      [...nodeArgs('src/relay/cli.ts'), 'store', 'accept-loss', '--redis', r.url],
      {
        env: {
          ...process.env,
          MACROBELL_REDIS_USERNAME: AUTH.username,
          MACROBELL_REDIS_PASSWORD: RELAY_PW,
        },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/The store loss is accepted/);
    expect(cli.stdout + cli.stderr).not.toContain(RELAY_PW);
    await waitFor(async () => (await healthz(d.relay.url)).status === 200, 'healthz ok again');
    // Now an unknown token is what it is: 401.
    expect((await call(`${d.relay.url}/events/page?after=0`, t.ada)).status).toBe(401);
    for (let i = 0; i < 2; i++) await d.relay.checkDeskAlerts();
    expect(texts, texts.join('\n')).toHaveLength(2);
    expect(texts[1]).toMatch(/^:white_check_mark: The store loss was accepted/);
  }, 90_000);
});
