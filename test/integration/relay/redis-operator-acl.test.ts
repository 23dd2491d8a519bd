/**
 * The operator's ACL user shipped in deploy/redis.acl.example, loaded into a real
 * redis-server: it can change the fsync policy (`CONFIG SET appendfsync`), rewrite the
 * append-only file and back up and restore the relay's keys with `relay backup/restore
 * --redis` — and nothing outside the relay's keys; the relay's own user still has no
 * CONFIG, DUMP or SCAN, and a backup run as it is refused naming the missing permission.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATOR_ACL_USER } from '../../../src/relay/redis/redis-acl.js';
import { PREFIX, STREAM } from '../../../src/relay/redis/redis-scripts.js';
import { relayCommand } from '../desk/processes.js';
import { tempDir } from './helpers.js';
import { RELAY_ACL_USER, startShippedAclRedis, type TestRedis } from './redis-server.js';

const RELAY_PW = 'relay-pw-5e0c19';
const OPERATOR_PW = 'operator-pw-b7d244';
const ADMIN = { username: 'test-admin', password: 'test-admin-pw' };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function shippedRedis(): Promise<TestRedis> {
  const r = await startShippedAclRedis(RELAY_PW, { operatorPassword: OPERATOR_PW, admin: ADMIN });
  cleanups.push(() => r.stop());
  return r;
}

async function client(url: string, username: string, password: string): Promise<Redis> {
  const c = new Redis(url, { username, password, lazyConnect: true, maxRetriesPerRequest: 0 });
  c.on('error', () => undefined);
  await c.connect();
  cleanups.push(async () => c.disconnect());
  return c;
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'allowed',
    (err: Error) => err.message.split(' ')[0],
  );

const operatorEnv = (password = OPERATOR_PW) => ({
  MACROBELL_REDIS_USERNAME: OPERATOR_ACL_USER,
  MACROBELL_REDIS_PASSWORD: password,
});

describe('the shipped operator ACL user', () => {
  it('sets the fsync policy and rewrites the AOF; the relay user cannot; neither touches other keys', async () => {
    const r = await shippedRedis();
    const operator = await client(r.url, OPERATOR_ACL_USER, OPERATOR_PW);
    const relay = await client(r.url, RELAY_ACL_USER, RELAY_PW);
    expect(await operator.config('SET', 'appendfsync', 'everysec')).toBe('OK');
    expect(await operator.config('GET', 'appendfsync')).toEqual(['appendfsync', 'everysec']);
    expect(await operator.bgrewriteaof()).toMatch(/rewriting/i);
    expect(await operator.info('persistence')).toMatch(/aof_enabled:1/);
    expect(await operator.config('SET', 'appendfsync', 'always')).toBe('OK');

    await relay.set(`${PREFIX}probe`, '1');
    const admin = await client(r.url, ADMIN.username, ADMIN.password);
    await admin.set('other-app:key', 'x');
    expect({
      relayConfigGet: await refusal(relay.config('GET', 'appendfsync')),
      relayConfigSet: await refusal(relay.config('SET', 'appendfsync', 'everysec')),
      relayDump: await refusal(relay.dump(`${PREFIX}probe`)),
      relayScan: await refusal(relay.scan('0')),
      relayRewrite: await refusal(relay.bgrewriteaof()),
      operatorOtherKey: await refusal(operator.dump('other-app:key')),
      operatorFlush: await refusal(operator.flushall()),
      operatorPublish: await refusal(operator.publish('c', 'm')),
      operatorRelayKey: await refusal(operator.dump(`${PREFIX}probe`)),
    }).toEqual({
      relayConfigGet: 'NOPERM',
      relayConfigSet: 'NOPERM',
      relayDump: 'NOPERM',
      relayScan: 'NOPERM',
      relayRewrite: 'NOPERM',
      operatorOtherKey: 'NOPERM',
      operatorFlush: 'NOPERM',
      operatorPublish: 'NOPERM',
      operatorRelayKey: 'allowed',
    });
  }, 60_000);

  it('backs up and restores the relay keys: TTLs, stream ids and consumer groups kept; refusals clear', async () => {
    const r = await shippedRedis();
    const relay = await client(r.url, RELAY_ACL_USER, RELAY_PW);
    const admin = await client(r.url, ADMIN.username, ADMIN.password);
    let lastId = '';
    for (let n = 1; n <= 30; n++)
      lastId = (await relay.xadd(STREAM, '*', 'type', 't', 'body', `{"n":${n}}`)) as string;
    await admin.xgroup('CREATE', STREAM, 'readers', '0');
    await relay.hset(`${PREFIX}users`, 'ana', 'hash-a');
    await relay.sadd(`${PREFIX}users-revoked`, 'old');
    await relay.set(`${PREFIX}dedup:abc`, lastId, 'PX', 3_600_000);
    await relay.hset(`${PREFIX}presence-nodes`, 'a', '1'); // presence is not backed up
    await admin.set('other-app:key', 'x'); // nor another application's keys
    const data = tempDir('mb-operator-data-');

    // The relay's own user: refused, naming the permission and the user to use instead.
    const refusedTo = join(tempDir('mb-op-'), 'b');
    const asRelay = await relayCommand(['backup', '--redis', r.url, '--to', refusedTo], {
      MACROBELL_REDIS_USERNAME: RELAY_ACL_USER,
      MACROBELL_REDIS_PASSWORD: RELAY_PW,
    });
    expect({ code: asRelay.code, err: asRelay.stderr }).toEqual({
      code: 1,
      err: expect.stringMatching(/Redis refused SCAN to this user \(NOPERM.*macrobell-operator/),
    });
    expect(existsSync(refusedTo), 'no half backup left behind').toBe(false);
    const wrong = await relayCommand(
      ['backup', '--redis', r.url, '--to', join(tempDir('mb-op-'), 'b')],
      operatorEnv('not-the-password'),
    );
    expect({ code: wrong.code, err: wrong.stderr }).toEqual({
      code: 1,
      err: expect.stringMatching(/cannot reach Redis for the backup: WRONGPASS/),
    });

    const to = join(tempDir('mb-op-'), 'backup');
    const made = await relayCommand(
      ['backup', '--redis', r.url, '--to', to, '--data', data],
      operatorEnv(),
    );
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^Backed up 4\/4 keys$/m);
    expect(made.stdout).toMatch(
      /Backed up 4 keys \(1 hash, 1 set, 1 stream, 1 string\); 30 webhooks in the stream from Redis at 127\.0\.0\.1:\d+ into /,
    );
    expect(made.stdout + made.stderr).not.toContain(OPERATOR_PW);
    expect(made.stdout + made.stderr).not.toContain('hash-a');
    expect(statSync(to).mode & 0o777).toBe(0o700);
    expect(readdirSync(to).sort()).toEqual(['manifest.json', 'redis-keys.jsonl']);
    for (const f of readdirSync(to)) expect(statSync(join(to, f)).mode & 0o777).toBe(0o600);

    // Into the same, non-empty store: refused, nothing written.
    const busy = await relayCommand(['restore', '--from', to, '--redis', r.url], operatorEnv());
    expect({ code: busy.code, err: busy.stderr }).toEqual({
      code: 1,
      err: expect.stringMatching(/already holds 4 relay keys.*--force.*Nothing was written/),
    });
    expect(await relay.hget(`${PREFIX}users`, 'ana')).toBe('hash-a');

    // A partial or damaged backup is refused before anything is written.
    const keysFile = join(to, 'redis-keys.jsonl');
    const good = readFileSync(keysFile);
    rmSync(keysFile);
    const partial = await relayCommand(['restore', '--from', to, '--redis', r.url], operatorEnv());
    expect(partial.stderr).toMatch(/the backup is incomplete: redis-keys\.jsonl is missing/);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 3] ^= 1;
    writeFileSync(keysFile, flipped, { mode: 0o600 });
    const damaged = await relayCommand(['restore', '--from', to, '--redis', r.url], operatorEnv());
    expect(damaged.stderr).toMatch(/the backup is damaged: redis-keys\.jsonl does not match/);
    writeFileSync(keysFile, good, { mode: 0o600 });

    // A fresh Redis (the desk's was lost): restored with the TTLs, ids and groups.
    const fresh = await shippedRedis();
    const back = await relayCommand(['restore', '--from', to, '--redis', fresh.url], operatorEnv());
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(/^Restored 4\/4 keys$/m);
    expect(back.stdout).toMatch(/Restored 4 keys .*30 webhooks in the stream .*counts checked/);
    const relay2 = await client(fresh.url, RELAY_ACL_USER, RELAY_PW);
    const admin2 = await client(fresh.url, ADMIN.username, ADMIN.password);
    expect(await relay2.hget(`${PREFIX}users`, 'ana')).toBe('hash-a');
    expect(await relay2.smembers(`${PREFIX}users-revoked`)).toEqual(['old']);
    expect(await relay2.xlen(STREAM)).toBe(30);
    const ttl = await admin2.pttl(`${PREFIX}dedup:abc`);
    expect(ttl).toBeGreaterThan(3_500_000);
    expect(ttl).toBeLessThanOrEqual(3_600_000);
    expect(await admin2.exists(`${PREFIX}presence-nodes`, 'other-app:key')).toBe(0);
    const groups = (await admin2.xinfo('GROUPS', STREAM)) as unknown[][];
    expect(groups.map((g) => g[1])).toEqual(['readers']);
    // The stream's last id came back: the next webhook gets a later id.
    const next = (await relay2.xadd(STREAM, '*', 'type', 't', 'body', '{"n":31}')) as string;
    const [ms, seq] = lastId.split('-').map(Number) as [number, number];
    const [nms, nseq] = next.split('-').map(Number) as [number, number];
    expect(nms > ms || (nms === ms && nseq > seq)).toBe(true);

    // --force replaces whatever relay keys the store holds with the backup's.
    await relay2.hset(`${PREFIX}users`, 'intruder', 'x');
    const forced = await relayCommand(
      ['restore', '--from', to, '--redis', fresh.url, '--force'],
      operatorEnv(),
    );
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/Deleted the 4 relay keys Redis held \(--force\)/);
    expect(await relay2.hkeys(`${PREFIX}users`)).toEqual(['ana']);
    expect(await relay2.xlen(STREAM)).toBe(30);
  }, 90_000);
});
