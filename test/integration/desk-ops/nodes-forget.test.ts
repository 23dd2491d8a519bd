/**
 * `relay nodes forget NAME`: a node retired from a desk on Redis leaves the admin page (it
 * stayed there SILENT for ever); a node still reporting is refused (it would list itself
 * again), and so is a name the desk never had.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisPresenceStore } from '../../../src/relay/desk-ops/presence/redis-presence-store.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { relayCommand } from '../desk/processes.js';
import { tempDir, waitFor } from '../relay/helpers.js';
import { startRedis, type TestRedis } from '../relay/redis-server.js';

let redis: TestRedis;
let relay: RunningRelay;
beforeAll(async () => {
  redis = await startRedis();
  relay = await startRelay({
    dataDir: tempDir('mb-forget-node-'),
    secret: 'forget-secret-1',
    token: 'forget-token-1',
    redis: { url: redis.url },
    nodeName: 'node-live',
  });
}, 60_000);
afterAll(async () => {
  await relay?.close();
  await redis?.stop();
});

describe('relay nodes forget', () => {
  it('takes a retired node off the admin page, and refuses a running or unknown one', async () => {
    // The desk's old node: its last report, ten minutes ago (it was shut down then).
    const store = await RedisPresenceStore.open(redis.url);
    await store.reportNode({
      node: 'node-retired',
      streams: 0,
      ingestPerSecond: 0,
      storeOk: true,
      storeReason: null,
      reportedAt: Date.now() - 10 * 60_000,
    });
    await store.close();
    const added = await relayCommand(['admins', 'add', 'lead', '--redis', redis.url]);
    expect(added.code, added.stderr).toBe(0);
    const admin = added.stdout.trimEnd().split('\n').at(-1) as string;
    const listed = async () => {
      const res = await request(`${relay.url}/admin`, {
        headers: { authorization: `Bearer ${admin}`, accept: 'application/json' },
      });
      const page = (await res.body.json()) as { nodes: { node: string; stale: boolean }[] };
      return page.nodes.map((n) => `${n.node}${n.stale ? ' SILENT' : ''}`).sort();
    };
    await waitFor(async () => (await listed()).length === 2, 'both nodes on the admin page');
    expect(await listed()).toEqual(['node-live', 'node-retired SILENT']);

    const running = await relayCommand(['nodes', 'forget', 'node-live', '--redis', redis.url]);
    expect({ code: running.code, err: running.stderr }).toEqual({
      code: 1,
      err: expect.stringMatching(
        /node node-live reported \d+ s ago: it is running\. Stop it first/,
      ),
    });
    const unknown = await relayCommand(['nodes', 'forget', 'node-x', '--redis', redis.url]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no node named "node-x" .*nodes: .*node-retired/);

    const forgot = await relayCommand(['nodes', 'forget', 'node-retired', '--redis', redis.url]);
    expect(forgot.code, forgot.stderr).toBe(0);
    expect(forgot.stdout).toMatch(/^Forgot node node-retired \(last report 6\d\d s ago\)/);
    expect(await listed()).toEqual(['node-live']);
  }, 60_000);
});
