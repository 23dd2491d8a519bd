/**
 * A desk on two relay nodes sharing one real redis-server: the traders are Redis's, so a
 * user added with `relay users add --redis` (from any data folder) authenticates on both
 * nodes, and a revoke closes the user's streams on both within a second.
 */
import Redis from 'ioredis';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayCommand } from '../desk/processes.js';
import {
  exited,
  openSseReader,
  spawnRelay,
  tempDir,
  waitFor,
  type RelayProcess,
} from './helpers.js';
import { startRedis, type TestRedis } from './redis-server.js';

let redis: TestRedis;
const nodes: RelayProcess[] = [];
const env = { MACROBELL_RELAY_SECRET: 'users-secret', MACROBELL_RELAY_TOKEN: 'legacy-token' };

beforeAll(async () => {
  redis = await startRedis();
  for (let i = 0; i < 2; i++)
    nodes.push(
      await spawnRelay(['--port', '0', '--data', tempDir('mb-users-node-'), '--redis', redis.url], {
        ...env,
        LOG_LEVEL: 'warn',
      }),
    );
}, 90_000);
afterAll(async () => {
  for (const n of nodes) n.child.kill('SIGTERM');
  await Promise.all(nodes.map((n) => exited(n.child)));
  await redis?.stop();
});

const users = (args: string[]) =>
  relayCommand(['users', ...args, '--data', tempDir('mb-users-cli-'), '--redis', redis.url]);

async function status(url: string, bearer: string): Promise<number> {
  const res = await request(`${url}/events/page`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  await res.body.dump();
  return res.statusCode;
}

describe('desk users on Redis, two nodes', () => {
  it('authenticates a user added from another data folder on every node, and revokes on all', async () => {
    const added = await users(['add', 'carol']);
    expect(added.code, added.stderr).toBe(0);
    const carol = added.stdout.trimEnd().split('\n').at(-1) as string;
    expect(carol).toMatch(/^mbu_[A-Za-z0-9_-]{43}$/);
    // The nodes' own SQLite folders know nothing of carol: both ask Redis.
    for (const n of nodes) expect(await status(n.url, carol)).toBe(200);
    expect(await status(nodes[0]!.url, `${carol}x`)).toBe(401);

    const again = await users(['add', 'carol']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/user "carol" exists: revoke it first/);

    const streams = await Promise.all(
      nodes.map((n) => openSseReader(`${n.url}/events`, { authorization: `Bearer ${carol}` })),
    );
    for (const s of streams) expect(s.res.statusCode).toBe(200);
    const revoke = await users(['revoke', 'carol']);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout).toMatch(/every relay node on this Redis/);
    const revokedAt = Date.now();
    await Promise.all(
      streams.map((s) => new Promise<void>((r) => (s.closed() ? r() : s.res.once('close', r)))),
    );
    // Each node checks revocations every 250 ms; a second is the promise to the desk.
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    for (const n of nodes) expect(await status(n.url, carol)).toBe(401);

    const list = await users(['list']);
    expect(list.stdout).toMatch(/^carol\s+created \S+\s+last seen 20\S+\s+REVOKED 20/m);
    // Only the hash is stored: the token itself is nowhere in Redis.
    const client = new Redis(redis.url);
    for (const key of await client.keys('macrobell:*')) {
      const type = await client.type(key);
      const value =
        type === 'hash'
          ? JSON.stringify(await client.hgetall(key))
          : type === 'set'
            ? JSON.stringify(await client.smembers(key))
            : type === 'string'
              ? await client.get(key)
              : '';
      expect(value, key).not.toContain(carol.slice(4));
    }
    client.disconnect();

    // A new token for the same name works again; the old one stays refused.
    const readded = await users(['add', 'carol']);
    expect(readded.code, readded.stderr).toBe(0);
    const carol2 = readded.stdout.trimEnd().split('\n').at(-1) as string;
    expect(await status(nodes[1]!.url, carol2)).toBe(200);
    expect(await status(nodes[1]!.url, carol)).toBe(401);
    // The legacy single token keeps working on every node.
    for (const n of nodes) expect(await status(n.url, 'legacy-token')).toBe(200);
  }, 90_000);

  it('answers 503 (retry shortly) while Redis is away, and lets the user in again once it is back', async () => {
    const added = await users(['add', 'dave']);
    expect(added.code, added.stderr).toBe(0);
    const dave = added.stdout.trimEnd().split('\n').at(-1) as string;
    expect(await status(nodes[0]!.url, dave)).toBe(200);
    await redis.kill();
    const res = await request(`${nodes[0]!.url}/events/page`, {
      headers: { authorization: `Bearer ${dave}` },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(await res.body.text()).toMatch(/cannot check tokens now/);
    await redis.restart();
    await waitFor(
      async () => (await status(nodes[0]!.url, dave)) === 200,
      'the user again',
      30_000,
    );
  }, 60_000);

  it('refuses a malformed --redis URL for users with the usage', async () => {
    const r = await relayCommand(['users', 'list', '--redis', 'http://nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--redis must be a redis:\/\/ or rediss:\/\/ URL/);
  });
});
