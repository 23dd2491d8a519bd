// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * The relay's desk commands as an operator uses them: keys from a 0600 file, no keys → 501,
 * the per-user rate limit, and rotate-secret against the simulator with the relay running.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../relay/helpers.js';
import {
  addDeskUser,
  requestDeskToken,
  DESK_PRIVATE,
  DESK_PUBLIC,
  relayCommand,
  relayWebhookCommand,
  serviceFlags,
  spawnDeskRelay,
  simulatorForSuite,
} from './processes.js';

const suite = simulatorForSuite();
const { running } = suite;

const tokenCall = requestDeskToken;
const userToken = addDeskUser;

describe('relay desk commands', () => {
  it('answers 501 without provider keys, and serves tokens once `keys set` runs — no restart', async () => {
    const data = tempDir('mb-desk-nokeys-');
    const relay = await spawnDeskRelay(suite.sim, data, ['--issue-service-tokens']);
    running.push(relay);
    const carol = await userToken(data, 'carol');
    const res = await tokenCall(relay.url, carol);
    expect(res.status).toBe(501);
    expect((res.json() as { message: string }).message).toMatch(
      /no provider keys.*MACROBELL_PUBLIC_KEY/,
    );

    const setKeys = async (pub: string, priv: string) => {
      const set = await relayCommand(['keys', 'set', '--data', data], {}, `${pub}\n${priv}\n`);
      expect(set.code, set.stderr).toBe(0);
    };
    const statusSoon = (status: number) =>
      vi.waitFor(
        async () => {
          const r = await tokenCall(relay.url, carol);
          expect(r.status).toBe(status);
        },
        { timeout: 10_000, interval: 250 },
      );
    await setKeys(DESK_PUBLIC, DESK_PRIVATE);
    await statusSoon(200);
    // New keys replace the old ones at once: no token cached for the old keys is handed out.
    await setKeys('not-a-desk-key', 'not-a-desk-secret');
    await statusSoon(502);
    expect(relay.stdout()).toContain('provider keys reloaded');
    expect(relay.stdout()).not.toContain(DESK_PRIVATE);
  }, 90_000);

  it('reads keys written 0600 by `keys set`, limits each user, and rotates the webhook secret', async () => {
    const data = tempDir('mb-desk-keys-');
    const set = await relayCommand(
      ['keys', 'set', '--data', data],
      {},
      `${DESK_PUBLIC}\n${DESK_PRIVATE}\n`,
    );
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).not.toContain(DESK_PRIVATE);
    expect(statSync(join(data, 'provider-keys.json')).mode & 0o777).toBe(0o600);

    const relay = await spawnDeskRelay(suite.sim, data, [
      '--issue-service-tokens',
      '--token-rate',
      '2',
    ]);
    running.push(relay);
    const dave = await userToken(data, 'dave');
    expect((await tokenCall(relay.url, dave)).status).toBe(200);
    expect((await tokenCall(relay.url, dave)).status).toBe(200);
    const limited = await tokenCall(relay.url, dave);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another trader has a bucket of their own.
    expect((await tokenCall(relay.url, await userToken(data, 'erin'))).status).toBe(200);

    const reg = await relayWebhookCommand('register', relay, data, suite.sim);
    expect(reg.code, reg.stdout + reg.stderr).toBe(0);
    const oldSecret = (
      JSON.parse(readFileSync(join(data, 'relay-secrets.json'), 'utf8')) as { secret: string }
    ).secret;
    const secretsBefore = readFileSync(join(data, 'relay-secrets.json'), 'utf8');
    // Run where the secret is not (another folder): refused, nothing written anywhere.
    const elsewhere = tempDir('mb-desk-elsewhere-');
    const lost = await relayCommand(
      [
        'rotate-secret',
        '--public-url',
        relay.url,
        '--data',
        elsewhere,
        ...serviceFlags(suite.sim.url),
      ],
      { MACROBELL_PUBLIC_KEY: DESK_PUBLIC, MACROBELL_PRIVATE_KEY: DESK_PRIVATE },
    );
    expect({ code: lost.code, err: lost.stderr }).toEqual({
      code: 1,
      err: expect.stringMatching(
        /no webhook secret in MACROBELL_RELAY_SECRET .*Nothing was written/,
      ),
    });
    expect(lost.stdout).not.toMatch(/saved/);
    expect(readdirSync(elsewhere)).toEqual([]);
    // A service that cannot be reached: refused before anything is written.
    const noService = await relayCommand(
      ['rotate-secret', '--public-url', relay.url, '--data', data,
        ...serviceFlags('http://127.0.0.1:9')], // prettier-ignore
    );
    expect(noService.code).toBe(1);
    expect(noService.stderr).toMatch(/calendar: .*Nothing was written/);
    expect(noService.stdout).not.toMatch(/saved/);
    expect(readFileSync(join(data, 'relay-secrets.json'), 'utf8')).toBe(secretsBefore);

    const rotate = await relayWebhookCommand('rotate-secret', relay, data, suite.sim);
    expect(rotate.code, rotate.stdout + rotate.stderr).toBe(0);
    const kept = (
      JSON.parse(readFileSync(join(data, 'relay-secrets.json'), 'utf8')) as { secret: string }
    ).secret.split(',');
    // new,old: the old one stays accepted for the service's retries.
    expect(kept).toHaveLength(2);
    const [newSecret] = kept as [string, string];
    expect(kept[1]).toBe(oldSecret);
    expect(newSecret).not.toBe(oldSecret);
    expect(`${rotate.stdout}${rotate.stderr}`).not.toContain(newSecret);
    expect(`${rotate.stdout}${rotate.stderr}`).not.toContain(oldSecret);
    const state = (await (await request(`${suite.sim.url}/_sim/state`)).body.json()) as {
      webhooks: Record<'calendar' | 'news', { url: string }[]>;
    };
    for (const api of ['calendar', 'news'] as const)
      expect(state.webhooks[api].map((w) => w.url)).toEqual([`${relay.url}/hooks/${newSecret}`]);
    // The running relay takes webhooks on the new URL without a restart.
    await vi.waitFor(
      async () => {
        const res = await request(`${relay.url}/hooks/${newSecret}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"type":"rotation_check"}',
        });
        await res.body.dump();
        expect(res.statusCode).toBe(204);
      },
      { timeout: 5000, interval: 200 },
    );
    // A retry of a delivery sent before the rotation is still stored.
    const retried = await request(`${relay.url}/hooks/${oldSecret}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"type":"late_retry"}',
    });
    await retried.body.dump();
    expect(retried.statusCode).toBe(204);
    expect(relay.stdout()).not.toContain(DESK_PRIVATE);
  }, 120_000);
});
