/**
 * The webhook secret rotated on the shipped HA layout during a burst, with nothing lost:
 * redis-server with deploy/redis.acl.example, two relay nodes whose secret is in their
 * environment (as the systemd unit's relay.env has it), deploy/nginx.conf in front of both
 * (a throw-away certificate), the simulator delivering its webhooks through nginx, and two
 * traders' app cores in desk mode (one through nginx, one on the nodes directly).
 *
 * `relay rotate-secret --redis` runs while prints are being delivered: every print is in
 * the relay's stream and at each trader exactly once, no delivery was answered 404, no node
 * counted an unknown secret, and the service holds the new URL only.
 */
import Redis from 'ioredis';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { EventDate } from '../../../src/shared/domain.js';
import { STREAM } from '../../../src/relay/redis/redis-scripts.js';
import { registerWebhook } from '../../fixtures/webhooks.js';
import { createHighRelease, simControl } from '../../support/releases.js';
import { spawnLines, type LineProcess } from '../chaos/processes.js';
import { exited, relayCommand, serviceFlags, spawnRelayCli } from './processes.js';
import { shippedRedis, spawnKeyedService, suiteCleanups } from './shipped-desk.js';
import { shippedNginx, selfSigned, stablePort } from '../proxies/proxy-setup.js';
import { tempDir, waitFor } from '../relay/helpers.js';
import { RELAY_ACL_USER } from '../relay/redis-server.js';

const KEYS = { id: 'rot-public', secret: 'rot-private-8e1f' };
const OLD_SECRET = 'rotOldHookSecret0123456789abcdef';
const REDIS_PASSWORD = 'rot-redis-password-2a9d';
const BEFORE = 20;
/** At most this many while the rotation runs (one every 50 ms until it returns). */
const DURING = 120;
const AFTER = 20;
const TRADERS = ['ana', 'ben'] as const;

const cleanups = suiteCleanups();

/** The releases the burst prints, made before anyone reads (one event, a second apart). */
async function releases(simUrl: string, count: number): Promise<EventDate[]> {
  const first = await createHighRelease(simUrl, 20 * 60_000, { name: 'Rotation Index' });
  const made: EventDate[] = [first];
  while (made.length < count)
    made.push(
      await simControl<EventDate>(simUrl, 'POST', '/_sim/event-dates', {
        eventId: first.eventId,
        dateUtc: new Date(Date.now() + 20 * 60_000 + made.length * 1000).toISOString(),
        volatility: 'HIGH',
        isAllDay: false,
        actual: null,
        consensus: 51.5,
        previous: 50.2,
      }),
    );
  return made;
}

/** Each print's event date id in the desk's stream, as often as it is there. */
async function storedPrints(url: string): Promise<string[]> {
  const client = new Redis(url, {
    username: RELAY_ACL_USER,
    password: REDIS_PASSWORD,
    lazyConnect: true,
  });
  try {
    await client.connect();
    const entries = (await client.xrange(STREAM, '-', '+')) as [string, string[]][];
    return entries.flatMap(([, fields]) => {
      const m = /"eventDateId":"([^"]+)"/.exec(fields[fields.indexOf('body') + 1] ?? '');
      return m?.[1] ? [m[1]] : [];
    });
  } finally {
    client.disconnect();
  }
}

describe('webhook secret rotation on two nodes', () => {
  it('loses no print at the relay or at any trader while the secret changes', async () => {
    const dir = tempDir('mb-rotation-');
    const tls = selfSigned(dir);
    const trust = { NODE_EXTRA_CA_CERTS: tls.cert };
    const sim = await spawnKeyedService(12, KEYS, trust, cleanups);
    const burst = await releases(sim.url, BEFORE + DURING + AFTER);

    const { redis, redisEnv, onRedis } = await shippedRedis(dir, REDIS_PASSWORD, cleanups);
    // What relay.env holds on each node (and what an operator's shell loads from it).
    const nodeEnv = {
      ...redisEnv,
      MACROBELL_RELAY_SECRET: OLD_SECRET,
      MACROBELL_RELAY_TOKEN: 'rot-legacy-token',
      MACROBELL_PUBLIC_KEY: KEYS.id,
      MACROBELL_PRIVATE_KEY: KEYS.secret,
      LOG_LEVEL: 'warn',
    };
    const nodes = await Promise.all(
      ['a', 'b'].map(async (name) => {
        const port = await stablePort();
        const proc = await spawnRelayCli(
          ['--port', String(port), '--data', tempDir(`mb-rotation-${name}-`), ...onRedis,
            '--redis-durability', 'aof-always', ...serviceFlags(sim.url)], // prettier-ignore
          nodeEnv,
        );
        cleanups.push(async () => {
          proc.child.kill('SIGKILL');
          await exited(proc.child);
        });
        return { port, url: `http://127.0.0.1:${port}` };
      }),
    );
    const nginxPort = await stablePort();
    const nginx = await shippedNginx(
      tempDir('mb-rotation-nginx-'),
      nginxPort,
      [nodes[0]!.port, nodes[1]!.port],
      tls,
    );
    cleanups.push(async () => {
      nginx.kill('SIGTERM');
      await exited(nginx);
    });
    const publicUrl = `https://127.0.0.1:${nginxPort}`;
    await registerWebhook({
      authUrl: `${sim.url}/auth`,
      apiUrl: `${sim.url}/calendar`,
      clientId: KEYS.id,
      clientSecret: KEYS.secret,
      url: `${publicUrl}/hooks/${OLD_SECRET}`,
    });

    // ── two traders in desk mode ─────────────────────────────────────────────────────
    const lists = { ana: publicUrl, ben: `${nodes[0]!.url},${nodes[1]!.url}` };
    const apps: Record<string, LineProcess> = {};
    for (const name of TRADERS) {
      const added = await relayCommand(['users', 'add', name, ...onRedis], redisEnv);
      expect(added.code, added.stderr).toBe(0);
      apps[name] = spawnLines(['test/integration/chaos/app-process.ts'], {
        ...trust,
        CHAOS_DATA_DIR: tempDir(`mb-rotation-app-${name}-`),
        CHAOS_REPORT_RELAY: '1',
        MACROBELL_RELAY_URL: lists[name],
        MACROBELL_RELAY_TOKEN: added.stdout.trimEnd().split('\n').at(-1) as string,
      });
    }
    for (const name of TRADERS)
      await waitFor(
        () => apps[name]!.lines.filter((l) => l.t === 'state').at(-1)?.state === 'live',
        `${name}'s app live`,
        60_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}: ${apps[name]!.stderr().slice(-2000)}`);
      });

    // ── the burst, with the rotation in its middle ───────────────────────────────────
    const print = (ed: EventDate, i: number) =>
      simControl(sim.url, 'PATCH', `/_sim/event-dates/${ed.id}`, { actual: 50 + (i % 7) });
    await Promise.all(burst.slice(0, BEFORE).map(print));
    const rotation = relayCommand(
      ['rotate-secret', '--public-url', publicUrl, '--data', tempDir('mb-rotation-ops-'),
        ...onRedis, ...serviceFlags(sim.url)], // prettier-ignore
      { ...nodeEnv, ...trust },
    );
    let rotated: Awaited<typeof rotation> | null = null;
    void rotation.then((r) => (rotated = r));
    // Throughout the rotation (it waits on the nodes and the service), one every 50 ms.
    let during = 0;
    while (rotated === null && during < DURING) {
      await print(burst[BEFORE + during] as EventDate, during);
      during++;
      await new Promise((r) => setTimeout(r, 50));
    }
    const done = rotated ?? (await rotation);
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toMatch(/Every node on this Redis accepts it now/);
    await Promise.all(burst.slice(BEFORE + DURING).map(print));

    const state = await simControl<{ webhooks: { calendar: { url: string }[] } }>(
      sim.url,
      'GET',
      '/_sim/state',
    );
    const registered = state.webhooks.calendar.map((w) => w.url);
    expect(registered).toHaveLength(1);
    expect(registered[0]).toMatch(new RegExp(`^${publicUrl}/hooks/[A-Za-z0-9_-]{43}$`));
    expect(registered[0]).not.toContain(OLD_SECRET);

    // ── counted: at the relay, at the service's side, at each trader ─────────────────
    const printed = [...burst.slice(0, BEFORE + during), ...burst.slice(BEFORE + DURING)];
    const ids = printed.map((r) => r.id);
    const once = (seen: string[]) => ({
      missing: ids.filter((id) => !seen.includes(id)),
      twice: ids.filter((id) => seen.indexOf(id) !== seen.lastIndexOf(id)),
    });
    await waitFor(
      async () => once(await storedPrints(redis.url)).missing.length === 0,
      'every print in the stream',
      60_000,
    ).catch(() => undefined);
    expect(once(await storedPrints(redis.url))).toEqual({ missing: [], twice: [] });
    const deliveries = await simControl<{ status: number | null; url: string }[]>(
      sim.url,
      'GET',
      '/_sim/deliveries',
    );
    expect(deliveries.filter((d) => d.status === 404)).toEqual([]);
    // The prints before went to the old URL, those after to the new one: both were taken.
    const to = (url: string) => deliveries.filter((d) => d.url === url && d.status === 204);
    const oldTaken = to(`${publicUrl}/hooks/${OLD_SECRET}`).length;
    const newTaken = to(registered[0] as string).length;
    expect(oldTaken).toBeGreaterThanOrEqual(BEFORE);
    expect(newTaken).toBeGreaterThanOrEqual(AFTER);
    console.log('rotation:', JSON.stringify({ printed: ids.length, during, oldTaken, newTaken }));
    for (const n of nodes) {
      const metrics = await (await request(`${n.url}/metrics`)).body.text();
      expect(metrics).toMatch(/^macrobell_relay_hooks_unknown_secret_total 0$/m);
    }
    const alerted = (app: LineProcess) =>
      app.lines.filter((l) => l.t === 'alert' && l.kind === 'released').map((l) => l.id as string);
    for (const name of TRADERS) {
      await waitFor(
        () => once(alerted(apps[name]!)).missing.length === 0,
        `${name}: every print`,
        60_000,
      ).catch(() => undefined);
      expect({ name, ...once(alerted(apps[name]!)) }).toEqual({ name, missing: [], twice: [] });
    }
  }, 300_000);
});
