// @clock any-moment — the simulator CLI runs as the desk's service, but no webhook is registered with it and the test reads no schedule
/**
 * A two-node desk on Redis with the shipped ACL file (deploy/redis.acl.example): users, an
 * admin, a watch list and acknowledged webhooks, then `relay backup --redis` as the
 * operator's ACL user (its password from a file) while the nodes run. The nodes stop, Redis
 * loses everything (its append-only file gone), node a's data folder too; `relay restore`
 * into the empty Redis and node a's new folder, the nodes start: users, the admin, the
 * watch list and every acknowledged webhook are back, the nodes see no store loss, and a
 * trader resuming from the last id it saw gets the next webhooks once each, nothing twice.
 */
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { OPERATOR_ACL_USER } from '../../../src/relay/redis/redis-acl.js';
import { openSseReader, pageAll, post, tempDir, waitFor } from '../relay/helpers.js';
import { RELAY_ACL_USER, startShippedAclRedis } from '../relay/redis-server.js';
import {
  DESK_PRIVATE,
  DESK_PUBLIC,
  relayCommand,
  spawnDeskRelay,
  spawnSimulator,
  stopAll,
  type Proc,
} from './processes.js';

const RELAY_PW = 'desk-relay-pw-61a0f3';
const OPERATOR_PW = 'desk-operator-pw-c94e27';
const HOOK_SECRET = 'deskBackupHookSecret0123456789ab';
const WATCHED = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';

const running: Proc[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  await stopAll(running);
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
}, 60_000);

const lastLine = (out: string) => out.trimEnd().split('\n').at(-1) as string;
const bodies = (frames: { id: string | null; data: string }[]) =>
  frames.filter((f) => f.id).map((f) => (JSON.parse(f.data) as { n: number }).n);

describe('relay backup and restore of a Redis desk', () => {
  it('brings back users, admins, watch lists and every acknowledged webhook; a trader resumes without a duplicate', async () => {
    const sim = await spawnSimulator();
    running.push(sim);
    const redis = await startShippedAclRedis(RELAY_PW, { operatorPassword: OPERATOR_PW });
    cleanups.push(() => redis.stop());
    const secrets = tempDir('mb-redis-backup-secrets-');
    const relayPwFile = join(secrets, 'redis-relay-password');
    const operatorPwFile = join(secrets, 'redis-operator-password');
    writeFileSync(relayPwFile, `${RELAY_PW}\n`, { mode: 0o600 });
    writeFileSync(operatorPwFile, `${OPERATOR_PW}\n`, { mode: 0o600 });
    const onRedis = ['--redis', redis.url, '--redis-password-file', relayPwFile];
    const relayUser = { MACROBELL_REDIS_USERNAME: RELAY_ACL_USER };
    const asOperator = ['--redis', redis.url, '--redis-password-file', operatorPwFile];
    const operatorUser = { MACROBELL_REDIS_USERNAME: OPERATOR_ACL_USER };
    // What relay.env holds on each node.
    const nodeEnv = {
      ...relayUser,
      MACROBELL_RELAY_SECRET: HOOK_SECRET,
      MACROBELL_RELAY_TOKEN: 'desk-legacy-token',
      MACROBELL_PUBLIC_KEY: DESK_PUBLIC,
      MACROBELL_PRIVATE_KEY: DESK_PRIVATE,
    };
    const dataA = tempDir('mb-redis-backup-a-');
    const dataB = tempDir('mb-redis-backup-b-');
    const startNode = async (data: string) => {
      const p = await spawnDeskRelay(
        sim,
        data,
        [...onRedis, '--redis-durability', 'aof-always'],
        nodeEnv,
      );
      running.push(p);
      return p;
    };
    let [a, b] = [await startNode(dataA), await startNode(dataB)];

    // ── the desk: two traders, an admin, a watch list, five acknowledged webhooks ────
    const tokens: Record<string, string> = {};
    for (const name of ['ana', 'ben']) {
      const added = await relayCommand(['users', 'add', name, ...onRedis], relayUser);
      expect(added.code, added.stderr).toBe(0);
      tokens[name] = lastLine(added.stdout);
    }
    const lead = await relayCommand(['admins', 'add', 'lead', ...onRedis], relayUser);
    expect(lead.code, lead.stderr).toBe(0);
    const ana = { authorization: `Bearer ${tokens.ana}` };
    const put = await request(`${a.url}/watchlist`, {
      method: 'PUT',
      headers: { ...ana, 'content-type': 'application/json' },
      body: JSON.stringify({ eventIds: [WATCHED] }),
    });
    expect(put.statusCode, await put.body.text()).toBe(200);
    // Ana's feed link, made with node a's feed key: the backup keeps the key.
    const feedRes = await request(`${a.url}/calendar/feed-url`, { headers: ana });
    expect(feedRes.statusCode).toBe(200);
    const feed = ((await feedRes.body.json()) as { url: string }).url;
    for (let n = 1; n <= 5; n++) {
      const node = n % 2 ? a : b;
      const res = await post(`${node.url}/hooks/${HOOK_SECRET}`, JSON.stringify({ type: 't', n }));
      expect(res.status).toBe(204);
    }
    const stream = await openSseReader(`${b.url}/events`, { ...ana, 'last-event-id': '0' });
    await waitFor(() => bodies(stream.frames).length === 5, 'five frames at ana');
    expect(bodies(stream.frames)).toEqual([1, 2, 3, 4, 5]);
    const lastSeen = stream.frames.filter((f) => f.id).at(-1)?.id as string;
    stream.close();

    // ── backed up while the nodes run, as the operator ───────────────────────────────
    const backup = join(tempDir('mb-redis-backup-to-'), 'desk-2026-12-05');
    const made = await relayCommand(
      ['backup', ...asOperator, '--data', dataA, '--to', backup],
      operatorUser,
    );
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/5 webhooks in the stream/);
    expect(made.stdout + made.stderr).not.toContain(OPERATOR_PW);
    expect(made.stdout + made.stderr).not.toContain(tokens.ana);
    expect(readdirSync(backup)).toEqual(
      expect.arrayContaining(['manifest.json', 'redis-keys.jsonl', 'calendar-feed.key']),
    );
    expect(statSync(backup).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(backup)) expect(statSync(join(backup, f)).mode & 0o777).toBe(0o600);

    // ── the loss: nodes stopped, Redis back without its data, node a's folder gone ───
    await stopAll([a, b]);
    await redis.stop();
    for (const f of readdirSync(redis.dir)) rmSync(join(redis.dir, f), { recursive: true });
    await redis.restart();
    rmSync(dataA, { recursive: true });
    const empty = await relayCommand(['users', 'list', ...onRedis], relayUser);
    expect(empty.stdout).not.toMatch(/^ana /m);

    // Redis's address from the environment, as the nodes' relay.env gives it.
    const restored = await relayCommand(
      ['restore', '--from', backup, '--redis-password-file', operatorPwFile, '--data', dataA],
      { ...operatorUser, MACROBELL_RELAY_REDIS: redis.url },
    );
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/^Restored \d+\/\d+ keys$/m);
    expect(restored.stdout).toMatch(/5 webhooks in the stream .*counts checked/);
    expect(restored.stdout + restored.stderr).not.toContain(OPERATOR_PW);
    // Node b kept its folder, with its own admin session key: never replaced unasked.
    const overB = await relayCommand([
      'restore',
      '--from',
      backup,
      '--files-only',
      '--data',
      dataB,
    ]);
    expect({ code: overB.code, err: overB.stderr }).toEqual({
      code: 1,
      err: expect.stringMatching(/already has a different admin-session\.key.*Nothing was written/),
    });
    // Node b first: it remembers the store's generation, so a marker the restore had not
    // brought back would be a loss it reports (/healthz 503), not a new desk it adopts.
    b = await startNode(dataB);
    a = await startNode(dataA);

    // ── the desk is back ─────────────────────────────────────────────────────────────
    const users = await relayCommand(['users', 'list', ...onRedis], relayUser);
    expect(users.stdout).toMatch(/^ana /m);
    expect(users.stdout).toMatch(/^ben /m);
    const admins = await relayCommand(['admins', 'list', ...onRedis], relayUser);
    expect(admins.stdout).toMatch(/lead/);
    for (const node of [a, b]) {
      const health = await request(`${node.url}/healthz`);
      expect(health.statusCode, await health.body.text()).toBe(200);
      const list = await request(`${node.url}/watchlist`, { headers: ana });
      expect(await list.body.json()).toMatchObject({ eventIds: [WATCHED] });
    }
    const sameFeed = await request(`${a.url}/calendar/feed-url`, { headers: ana });
    expect(((await sameFeed.body.json()) as { url: string }).url.replace(a.url, '')).toBe(
      feed.replace(/^https?:\/\/[^/]+/, ''),
    );
    expect((await pageAll(b.url, tokens.ana)).map((e) => e.body.n)).toEqual([1, 2, 3, 4, 5]);

    // ── ana resumes where she was: the next webhooks once each, nothing she had ───────
    const resumed = await openSseReader(`${a.url}/events`, { ...ana, 'last-event-id': lastSeen });
    for (const [n, node] of [
      [6, b],
      [7, a],
    ] as const)
      expect(
        (await post(`${node.url}/hooks/${HOOK_SECRET}`, JSON.stringify({ type: 't', n }))).status,
      ).toBe(204);
    await waitFor(() => bodies(resumed.frames).includes(7), 'the two new webhooks at ana');
    expect(bodies(resumed.frames)).toEqual([6, 7]);
    resumed.close();
  }, 180_000);
});
