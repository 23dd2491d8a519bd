/**
 * The relay's /metrics, desk operations included, passes `promtool check metrics` (the
 * Prometheus project's own linter): one desktop connected and reporting, so the presence
 * gauge and the applied-lag histogram have values; after a replay on this one node (SQLite,
 * no other node to ask) the replay counters too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteAdminStore } from '../../../src/relay/desk-ops/admin/admin-store.js';
import type { ReplayResult } from '../../../src/relay/desk-ops/replay/replay.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { UserDirectory } from '../../../src/relay/users/users.js';
import { post, tempDir, waitFor } from '../relay/helpers.js';
import { startDesktop, type Desktop } from './desktops.js';

const PROMTOOL = '/usr/bin/promtool';
let relay: RunningRelay;
let desktop: Desktop;
let admin = '';

beforeAll(async () => {
  if (!existsSync(PROMTOOL))
    throw new Error(
      `promtool is needed to check /metrics (${PROMTOOL} not found): install it with ` +
        '`sudo apt-get install -y prometheus` (Debian/Ubuntu) or `brew install prometheus`.',
    );
  const data = tempDir('mb-promtool-');
  const users = new UserDirectory(openRelayDatabase(data));
  const token = users.add('ana').token;
  users.db.close();
  const admins = SqliteAdminStore.open(data);
  admin = (await admins.add('lead')).token;
  await admins.close();
  relay = await startRelay({ dataDir: data, secret: 'prom-secret', token: 'prom-legacy' });
  desktop = startDesktop({ name: 'ana', url: relay.url, token, desktopId: 'desk-ana-0001' });
  await desktop.live(); // with no cursor it gets what is stored from then on
  expect((await post(relay.webhookUrl, '{"type":"t"}')).status).toBe(204);
});
afterAll(async () => {
  await desktop?.stop();
  await relay?.close();
});

describe('/metrics', () => {
  it('passes promtool and counts the connected desktop, its applied lag and replays', async () => {
    const text = await waitFor(async () => {
      const res = await request(`${relay.url}/metrics`);
      const body = await res.body.text();
      return /macrobell_relay_applied_lag_seconds_count [1-9]/.test(body) ? body : null;
    }, 'a presence report to reach the lag histogram');
    expect(text).toContain('macrobell_relay_desktops_connected 1');
    expect(text).toContain('macrobell_relay_replays_total 0');

    // Replay the last hour to ana: her one desktop gets the one event again.
    const res = await request(`${relay.url}/admin/replay`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'ana', since: '1h' }),
    });
    const result = (await res.body.json()) as ReplayResult;
    expect(res.statusCode).toBe(200);
    expect(result).toMatchObject({ user: 'ana', events: 1, desktops: 1 });
    expect(result.nodes).toEqual({ answered: 0, expected: 0 });
    await waitFor(() => desktop.replayed.length === 1, 'the replayed event on the desktop');
    expect(desktop.replayed[0]).toEqual({ id: desktop.applied[0]?.id, payload: { type: 't' } });
    const after = await (await request(`${relay.url}/metrics`)).body.text();
    expect(after).toContain('macrobell_relay_replays_total 1');
    expect(after).toContain('macrobell_relay_replayed_events_total 1');
    const check = spawnSync(PROMTOOL, ['check', 'metrics'], { input: after, encoding: 'utf8' });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});
