/**
 * `relay replay` across a desk of two relay processes on one real redis-server, with the
 * simulator (a process) as the service sending its webhooks to node A. Trader ana runs two
 * app cores: one live on node A through the prints, one started on node B afterwards (its
 * stream begins at the head, so it missed them); a third ana desktop's connection to B
 * drops, and ben streams from A. Replaying ana's range reaches her two connected desktops
 * (one through the other node), applies on the one that missed it what it lacked, changes
 * nothing and alerts nothing a second time on the one that had it, and sends ben nothing.
 * The receipts summary of the print shows on the admin JSON; the route refuses trader
 * tokens and bad input with clear answers.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppService, type AppService } from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import type { AdminSnapshot } from '../../../src/relay/desk-ops/admin/admin-view.js';
import type { DomainChange, EventDate } from '../../../src/shared/domain.js';
import { DAY_MS, utcDayStart } from '../../../src/shared/desk-alerts-today.js';
import { registerWebhook } from '../../fixtures/webhooks.js';
import {
  DESK_PRIVATE,
  DESK_PUBLIC,
  relayCommand,
  serviceFlags,
  spawnCli,
  stopAll,
  type Proc,
} from '../desk/processes.js';
import { exited, post, spawnRelay, tempDir, waitFor, type RelayProcess } from '../relay/helpers.js';
import { startRedis, type TestRedis } from '../relay/redis-server.js';
import { startCuttableProxy, startDesktop, type Desktop } from './desktops.js';

const SECRET = 'replay-secret';
const env = {
  MACROBELL_PUBLIC_KEY: DESK_PUBLIC,
  MACROBELL_PRIVATE_KEY: DESK_PRIVATE,
  MACROBELL_RELAY_SECRET: SECRET,
  MACROBELL_RELAY_TOKEN: '',
  LOG_LEVEL: 'warn',
};
let sim: Proc;
let redis: TestRedis;
const nodes: RelayProcess[] = [];
const apps: AppService[] = [];
const desktops: Desktop[] = [];
let proxy: Awaited<ReturnType<typeof startCuttableProxy>>;
const tokens: Record<string, string> = {};
let admin = '';

const lastLine = (s: string) => s.trimEnd().split('\n').at(-1) as string;

async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function adminJson<T>(url: string, token = admin): Promise<T> {
  const res = await request(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  expect(res.statusCode).toBe(200);
  return (await res.body.json()) as T;
}

async function startApp(user: string, relayUrl: string): Promise<AppService> {
  const app = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), `mb-replay-${user}-`)),
    secretStore: new MemorySecretStore(),
    logFile: null,
    logLevel: 'silent',
    appVersion: '1.5.0',
    env: {
      MACROBELL_RELAY_URL: relayUrl,
      MACROBELL_RELAY_TOKEN: tokens[user],
      MACROBELL_CALENDAR_URL: `${sim.url}/calendar`,
      MACROBELL_NEWS_URL: `${sim.url}/news`,
    },
  });
  apps.push(app);
  await app.start();
  await waitFor(async () => (await app.api.getStatus()).relay?.connected === true, 'app live');
  return app;
}

/** The event dates an app holds on the day of `at`. */
async function datesOn(app: AppService, at: number): Promise<EventDate[]> {
  const day = Math.floor(at / 86_400_000) * 86_400_000;
  return app.api.listEventDates({
    from: new Date(day).toISOString(),
    to: new Date(day + 86_400_000).toISOString(),
  });
}

beforeAll(async () => {
  redis = await startRedis();
  // The scenario clock frozen: only the webhooks this test causes reach the relay.
  sim = await spawnCli(
    'src/simulator/cli.ts',
    [
      '--port',
      '0',
      '--seed',
      '3',
      '--speed',
      '0',
      '--client-id',
      DESK_PUBLIC,
      '--client-secret',
      DESK_PRIVATE,
    ],
    {},
    /^simulator listening on (\S+)\n/,
  );
  const data = tempDir('mb-replay-');
  const flags = ['--port', '0', '--data', data, '--redis', redis.url, ...serviceFlags(sim.url)];
  for (let i = 0; i < 2; i++) nodes.push(await spawnRelay(flags, env));
  for (const name of ['ana', 'ben']) {
    const r = await relayCommand(['users', 'add', name, '--redis', redis.url]);
    expect(r.code, r.stderr).toBe(0);
    tokens[name] = lastLine(r.stdout);
  }
  const added = await relayCommand(['admins', 'add', 'lead', '--redis', redis.url]);
  expect(added.code, added.stderr).toBe(0);
  admin = lastLine(added.stdout);
  await registerWebhook({
    authUrl: `${sim.url}/auth`,
    apiUrl: `${sim.url}/calendar`,
    clientId: DESK_PUBLIC,
    clientSecret: DESK_PRIVATE,
    url: `${nodes[0]?.url}/hooks/${SECRET}`,
  });
}, 120_000);

afterAll(async () => {
  for (const d of desktops) await d.stop();
  for (const a of apps) await a.stop();
  await proxy?.close();
  for (const n of nodes) n.child.kill('SIGTERM');
  await Promise.all(nodes.map((n) => exited(n.child)));
  await redis?.stop();
  await stopAll([sim]);
});

describe('relay replay', () => {
  it('re-sends a range to one trader on every node: what was missed is applied, nothing else changes', async () => {
    const [a, b] = nodes as [RelayProcess, RelayProcess];
    const anaLive = await startApp('ana', a.url);
    proxy = await startCuttableProxy(b.url);
    const ben = startDesktop({
      name: 'ben',
      url: a.url,
      token: tokens.ben as string,
      desktopId: 'desk-ben-0001',
    });
    const anaDropped = startDesktop({
      name: 'ana',
      url: proxy.url,
      token: tokens.ana as string,
      desktopId: 'desk-ana-drop1',
    });
    desktops.push(ben, anaDropped);
    await waitFor(async () => {
      const s = await adminJson<AdminSnapshot>(`${a.url}/admin`);
      const live = (u: string) =>
        s.traders.find((t) => t.user === u)?.desktops.filter((d) => d.connected).length;
      return live('ana') === 2 && live('ben') === 1;
    }, 'three desktops connected');

    // Two webhooks ana's live desktop applies: a date 200 days out (outside any backfill
    // window, so only the webhook brings it) and a HIGH release that prints.
    // an event of its own, made before the range (its event_created webhook is not in it)
    const any = {
      eventId: (
        await control<{ id: string }>('POST', '/_sim/events', {
          name: 'Replay Test Index',
          countryCode: 'US',
          currencyCode: 'USD',
        })
      ).id,
    };
    await waitFor(
      async () =>
        (
          await adminJson<{ events: unknown[] }>(
            `${a.url}/admin/log?since=${new Date(Date.now() - 60_000).toISOString()}`,
          )
        ).events.length >= 1,
      'the event_created webhook stored',
    );
    const since = new Date(Date.now() + 1).toISOString();
    const farAt = Date.now() + 200 * 86_400_000;
    const far = await control<EventDate>('POST', '/_sim/event-dates', {
      eventId: any.eventId,
      dateUtc: new Date(farAt).toISOString(),
    });
    const high = await control<EventDate>('POST', '/_sim/event-dates', {
      eventId: any.eventId,
      dateUtc: new Date(Date.now() + 2_000).toISOString(),
      volatility: 'HIGH',
      consensus: 4.1,
    });
    await waitFor(() => Date.now() > Date.parse(high.dateUtc), 'the release time');
    await control('PATCH', `/_sim/event-dates/${high.id}`, { actual: 4.7 });
    const released = async (app: AppService) =>
      (await app.api.listAlerts({})).filter((r) => r.kind === 'released');
    await waitFor(async () => (await released(anaLive)).length === 1, 'the print alerted');
    const alertedAt = Date.now();
    await waitFor(
      async () => (await datesOn(anaLive, farAt)).some((e) => e.id === far.id),
      'far date',
    );
    const log = await waitFor(async () => {
      const l = await adminJson<{ events: { id: string }[] }>(`${a.url}/admin/log?since=${since}`);
      return l.events.length === 3 ? l.events : null;
    }, 'three webhooks stored');
    const head = log.at(-1)?.id as string;
    await waitFor(() => ben.cursor() === head && anaDropped.cursor() === head, 'all applied');

    // The receipts summary of the print, from ana's live desktop, on the admin JSON. "Today"
    // is a UTC day: a report of the next day (the run crossed 00:00 UTC) counts no print.
    const printDay = utcDayStart(alertedAt);
    const summary = await waitFor(async () => {
      const s = await adminJson<AdminSnapshot>(`${b.url}/admin`);
      const today = s.traders.find((t) => t.user === 'ana')?.alertsToday ?? null;
      return today && (today.count > 0 || today.day !== printDay) ? today : null;
    }, "ana's prints today on the admin JSON");
    if (summary.day === printDay) {
      // No window runs here: no surface acknowledged the print, so the desk reads it as
      // not seen, with no lateness made up from the time it was applied.
      expect(summary).toMatchObject({ count: 1, unacknowledged: 1, maxLateMs: null, last: null });
    } else {
      expect(summary).toMatchObject({ day: printDay + DAY_MS, count: 0 });
    }

    proxy.drop();
    const anaLate = await startApp('ana', b.url);
    expect(await datesOn(anaLate, farAt)).toEqual([]);
    await waitFor(async () => {
      const s = await adminJson<AdminSnapshot>(`${a.url}/admin`);
      const ana = s.traders.find((t) => t.user === 'ana');
      return (
        ana?.desktops.filter((d) => d.connected).length === 2 &&
        ana.desktops.find((d) => d.desktop === 'desk-ana-drop1')?.connected === false
      );
    }, 'the dropped desktop away, the late one connected');

    const before = {
      alerts: (await released(anaLive)).length,
      high: (await datesOn(anaLive, Date.parse(high.dateUtc))).find((e) => e.id === high.id),
    };
    const changes: DomainChange[] = [];
    anaLive.on('changes', (c) => changes.push(...c));

    const r = await relayCommand(['replay', '--user', 'ana', '--since', since, '--url', a.url], {
      MACROBELL_ADMIN_TOKEN: admin,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Replayed 3 events \(.+\) to 2 connected desktops of ana\.$/m);

    // The desktop that missed them: the far date is applied now.
    await waitFor(
      async () => (await datesOn(anaLate, farAt)).some((e) => e.id === far.id),
      'far date on the late desktop',
    );
    // A live webhook after the replay: once each desktop has applied it, it has read the replay too.
    const marker = await post(`${a.url}/hooks/${SECRET}`, JSON.stringify({ type: 'test.marker' }));
    expect(marker.status).toBe(204);
    const markerId = await waitFor(async () => {
      const l = await adminJson<{ events: { id: string }[] }>(`${a.url}/admin/log?since=${since}`);
      return l.events.length === 4 ? (l.events.at(-1)?.id as string) : null;
    }, 'the marker stored');
    await waitFor(
      async () => (await anaLive.api.getStatus()).relay?.lastEventId === markerId,
      'ana live past the marker',
    );
    await waitFor(() => ben.cursor() === markerId, 'ben past the marker');

    expect(changes).toEqual([]);
    expect((await released(anaLive)).length).toBe(before.alerts);
    expect(
      (await datesOn(anaLive, Date.parse(high.dateUtc))).find((e) => e.id === high.id),
    ).toEqual(before.high);
    expect(ben.replayed).toEqual([]);
    expect(anaDropped.replayed).toEqual([]);
    // The replay never moved a cursor: the late desktop's follows the live feed only.
    await waitFor(
      async () => (await anaLate.api.getStatus()).relay?.lastEventId === markerId,
      'late past the marker',
    );
  }, 240_000);

  it('needs an admin token, and answers bad input and a store away with the reason', async () => {
    const [a] = nodes as [RelayProcess];
    const replay = async (body: unknown, token: string | null = admin) => {
      const res = await request(`${a.url}/admin/replay`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      return { status: res.statusCode, body: (await res.body.json()) as { message?: string } };
    };
    const ok = { user: 'ana', since: '1h' };
    expect((await replay(ok, null)).status).toBe(401);
    const trader = await replay(ok, tokens.ana as string);
    expect(trader.status).toBe(403);
    expect(trader.body.message).toContain('trader token');
    expect(await replay({ user: 'zed', since: '1h' })).toEqual({
      status: 404,
      body: { error: 'unknown_user', message: 'No active trader named "zed"' },
    });
    const badDate = await replay({ user: 'ana', since: 'yesterday' });
    expect(badDate.status).toBe(400);
    expect(badDate.body.message).toContain('since and until must be ISO 8601');
    const reversed = await replay({
      user: 'ana',
      since: '2h',
      until: new Date(Date.now() - 5 * 86_400_000).toISOString(),
    });
    expect(reversed.body.message).toBe('since must be before until');
    const tooLong = await replay({ user: 'ana', since: '30d' });
    expect(tooLong).toMatchObject({
      status: 400,
      body: { message: 'A replay covers at most 7 days' },
    });
    const extra = await replay({ user: 'ana', since: '1h', all: true });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toMatch(/^replay: .*all/);
    const cli = await relayCommand(['replay', '--user', 'ana', '--url', a.url], {
      MACROBELL_ADMIN_TOKEN: admin,
    });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('usage: replay --user NAME --since');
    // Redis away: a clear 503 (tokens cannot be checked), never a 500.
    await redis.kill();
    const away = await replay(ok);
    expect(away).toEqual({
      status: 503,
      body: { error: 'store_unavailable', message: 'The relay cannot check admin tokens now' },
    });
    await redis.restart();
  }, 60_000);
});
