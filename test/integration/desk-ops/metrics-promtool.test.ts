/**
 * The relay's /metrics, desk operations included, passes `promtool check metrics` (the
 * Prometheus project's own linter): one desktop connected and reporting, so the presence
 * gauge and the applied-lag histogram have values.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { openRelayDatabase } from '../../../src/relay/relay-db.js';
import { UserDirectory } from '../../../src/relay/users.js';
import { post, tempDir, waitFor } from '../relay/helpers.js';
import { startDesktop, type Desktop } from './desktops.js';

const PROMTOOL = '/usr/bin/promtool';
let relay: RunningRelay;
let desktop: Desktop;

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
  relay = await startRelay({ dataDir: data, secret: 'prom-secret', token: 'prom-legacy' });
  desktop = startDesktop({ name: 'ana', url: relay.url, token, desktopId: 'desk-ana-0001' });
  expect((await post(relay.webhookUrl, '{"type":"t"}')).status).toBe(204);
});
afterAll(async () => {
  await desktop?.stop();
  await relay?.close();
});

describe('/metrics', () => {
  it('passes promtool and counts the connected desktop and its applied lag', async () => {
    const text = await waitFor(async () => {
      const res = await request(`${relay.url}/metrics`);
      const body = await res.body.text();
      return /macrobell_relay_applied_lag_seconds_count [1-9]/.test(body) ? body : null;
    }, 'a presence report to reach the lag histogram');
    expect(text).toContain('macrobell_relay_desktops_connected 1');
    const check = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});
