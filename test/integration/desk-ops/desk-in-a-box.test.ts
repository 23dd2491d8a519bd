/**
 * A desk in a box, as the docs ship it: redis-server with deploy/redis.acl.example and the
 * relay's password in a file, two relay nodes (the relay CLI) on it, deploy/nginx.conf and
 * deploy/Caddyfile in front of both (a throw-away certificate), the simulator as the
 * service delivering its webhooks through nginx, and three app cores in desk mode, each
 * given a relay URL list (nginx then Caddy, Caddy then nginx, the two nodes directly).
 *
 * During three bursts of 100 prints it kills -9 and restarts Redis, then each node in turn
 * (the upstream of both proxies), and Caddy itself (two traders list it). Every trader gets each print exactly once (one alert,
 * in one notification); users, the admin and the watch lists survive; and each fault
 * shows on /healthz, the admin page's JSON and the desk's chat with its reason — one post
 * when it starts and one when it ends.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { EventDate } from '../../../src/shared/domain.js';
import { STREAM } from '../../../src/relay/redis/redis-scripts.js';
import { compareEventIds } from '../../../src/shared/relay-ids.js';
import { registerWebhook } from '../../fixtures/webhooks.js';
import { createHighRelease, simControl } from '../../support/releases.js';
import { spawnLines, type LineProcess } from '../chaos/processes.js';
import { exited, relayCommand, serviceFlags, spawnRelayCli } from '../desk/processes.js';
import { shippedRedis, spawnKeyedService, suiteCleanups } from '../desk/shipped-desk.js';
import { shippedCaddy, shippedNginx, selfSigned, stablePort } from '../proxies/proxy-setup.js';
import { startChatReceiver, type ChatReceiver } from '../relay/chat-receiver.js';
import { tempDir, waitFor } from '../relay/helpers.js';
import { RELAY_ACL_USER } from '../relay/redis-server.js';

const KEYS = { id: 'box-public', secret: 'box-private-4b1d' };
const HOOK_SECRET = 'boxHookSecret0123456789abcdef';
const REDIS_PASSWORD = 'box-redis-password-7c2e';
const BURSTS = 3;
const PER_BURST = 100;
const TRADERS = ['ana', 'ben', 'cy'] as const;

const cleanups = suiteCleanups();

/** The desk's chat: a loopback Slack-compatible receiver, closed after the test. */
async function chatReceiver(): Promise<ChatReceiver> {
  const chat = await startChatReceiver();
  cleanups.push(() => chat.close());
  return chat;
}

describe('a desk in a box', () => {
  it('loses and repeats nothing, keeps its people, and tells each fault once with its reason', async () => {
    const t0 = Date.now();
    const dir = tempDir('mb-deskbox-');
    const tls = selfSigned(dir);
    const trust = { NODE_EXTRA_CA_CERTS: tls.cert };
    const chat = await chatReceiver();

    // ── the service: no autoplay; the releases of the bursts made before anyone reads ──
    const sim = await spawnKeyedService(11, KEYS, trust, cleanups);
    const first = await createHighRelease(sim.url, 20 * 60_000, { name: 'Box Index' });
    const releases: EventDate[] = [first];
    while (releases.length < BURSTS * PER_BURST)
      releases.push(
        ...(await Promise.all(
          Array.from({ length: 23 }, (_, i) =>
            simControl<EventDate>(sim.url, 'POST', '/_sim/event-dates', {
              eventId: first.eventId,
              dateUtc: new Date(
                Date.now() + 20 * 60_000 + (releases.length + i) * 1000,
              ).toISOString(),
              volatility: 'HIGH',
              isAllDay: false,
              actual: null,
              consensus: 51.5,
              previous: 50.2,
            }),
          ),
        )),
      );

    // ── Redis with the shipped ACL; the relay's password in a file ───────────────────
    const { redis, redisEnv, onRedis } = await shippedRedis(dir, REDIS_PASSWORD, cleanups);
    // the shipped ACL has no CONFIG: a node states Redis's fsync policy (docs/relay.md)
    const nodeOnRedis = [...onRedis, '--redis-durability', 'aof-always'];

    // ── two relay nodes on fixed ports (a killed node comes back where the proxies look) ─
    const nodeEnv = {
      ...redisEnv,
      MACROBELL_RELAY_SECRET: HOOK_SECRET,
      MACROBELL_RELAY_TOKEN: 'box-legacy-token',
      MACROBELL_PUBLIC_KEY: KEYS.id,
      MACROBELL_PRIVATE_KEY: KEYS.secret,
      MACROBELL_DESK_ALERT_WEBHOOK: chat.url,
      LOG_LEVEL: 'warn',
    };
    type Node = Awaited<ReturnType<typeof node>>;
    const node = async (name: string) => {
      const port = await stablePort();
      const data = tempDir(`mb-deskbox-${name}-`);
      const args = [
        '--port', String(port), '--data', data, ...nodeOnRedis, ...serviceFlags(sim.url),
      ]; // prettier-ignore
      const n = {
        name,
        port,
        url: `http://127.0.0.1:${port}`,
        proc: await spawnRelayCli(args, nodeEnv),
        async kill() {
          n.proc.child.kill('SIGKILL');
          await exited(n.proc.child);
        },
        async restart() {
          n.proc = await spawnRelayCli(args, nodeEnv);
        },
      };
      cleanups.push(() => n.kill());
      return n;
    };
    const nodes = (await Promise.all([node('a'), node('b')])) as [Node, Node];
    const nodeName = (n: { port: number }) => new RegExp(`Relay node \\S+:${n.port} `);

    // ── the shipped proxies in front of both ─────────────────────────────────────────
    const proxies: {
      name: string;
      url: string;
      kill(): Promise<void>;
      restart(): Promise<void>;
    }[] = [];
    for (const [name, shipped] of [
      ['nginx', shippedNginx],
      ['caddy', shippedCaddy],
    ] as const) {
      const pdir = tempDir(`mb-deskbox-${name}-`);
      const port = await stablePort();
      const start = () => shipped(pdir, port, [nodes[0].port, nodes[1].port], tls, '127.0.0.1');
      let child = await start();
      cleanups.push(async () => {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000); // Caddy waits for streams
        await exited(child);
        clearTimeout(timer);
      });
      proxies.push({
        name,
        url: `https://127.0.0.1:${port}`,
        async kill() {
          child.kill('SIGKILL');
          await exited(child);
        },
        async restart() {
          child = await start();
        },
      });
    }
    const agent = new Agent({ connect: { ca: readFileSync(tls.cert, 'utf8') } });
    cleanups.push(() => agent.close());
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const res = await request(url, { headers, dispatcher: agent }).catch(() => null);
      if (!res) return { status: 0, json: null as unknown };
      const text = await res.body.text();
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: res.statusCode, json };
    };
    for (const p of proxies)
      await waitFor(async () => (await get(`${p.url}/healthz`)).status === 200, `${p.name} up`);

    // ── the desk's people: three traders and an admin, their watch lists ─────────────
    const tokens: Record<string, string> = {};
    // dee has no app running: nothing re-uploads her list, so only the store keeps it.
    const people = [...TRADERS, 'dee'];
    const [added, ...usersAdded] = await Promise.all([
      relayCommand(['admins', 'add', 'lead', ...onRedis], redisEnv),
      ...people.map((name) => relayCommand(['users', 'add', name, ...onRedis], redisEnv)),
    ]);
    for (const [i, r] of usersAdded.entries()) {
      expect(r.code, r.stderr).toBe(0);
      tokens[people[i]!] = r.stdout.trimEnd().split('\n').at(-1) as string;
    }
    expect(added.code, added.stderr).toBe(0);
    const admin = added.stdout.trimEnd().split('\n').at(-1) as string;
    // One event of its own on each trader's watch list (the app uploads it to the desk).
    const watched: Record<string, string> = {};
    for (const name of [...TRADERS, 'dee'])
      watched[name] = (
        await simControl<{ id: string }>(sim.url, 'POST', '/_sim/events', {
          name: `Box Watch ${name}`,
          countryCode: 'US',
          currencyCode: 'USD',
          volatility: 'HIGH',
        })
      ).id;

    // ── the service's webhooks go through nginx ─────────────────────────────────────
    await registerWebhook({
      authUrl: `${sim.url}/auth`,
      apiUrl: `${sim.url}/calendar`,
      clientId: KEYS.id,
      clientSecret: KEYS.secret,
      url: `${proxies[0]!.url}/hooks/${HOOK_SECRET}`,
    });

    // ── three traders' app cores in desk mode, each given a list ────────────────────
    const lists: Record<(typeof TRADERS)[number], string> = {
      ana: `${proxies[0]!.url},${proxies[1]!.url}`,
      ben: `${proxies[1]!.url},${proxies[0]!.url}`,
      cy: `${nodes[0].url},${nodes[1].url}`,
    };
    const apps: Record<string, LineProcess> = {};
    const appDirs: Record<string, string> = {};
    for (const name of TRADERS)
      apps[name] = spawnLines(['test/integration/chaos/app-process.ts'], {
        ...trust,
        CHAOS_DATA_DIR: (appDirs[name] = tempDir(`mb-deskbox-app-${name}-`)),
        CHAOS_REPORT_RELAY: '1',
        MACROBELL_RELAY_URL: lists[name],
        MACROBELL_RELAY_TOKEN: tokens[name],
      });
    for (const name of TRADERS) {
      const app = apps[name]!;
      await waitFor(() => app.lines.some((l) => l.t === 'ready'), `${name}'s app`, 60_000).catch(
        (err: Error) => {
          throw new Error(`${err.message}: ${app.stderr().slice(-2000)}`);
        },
      );
      await waitFor(
        () => app.lines.filter((l) => l.t === 'state').at(-1)?.state === 'live',
        `${name}'s app live`,
        60_000,
      );
    }
    const deskList = async (name: string, via: string) => {
      const r = await get(`${via}/watchlist`, { authorization: `Bearer ${tokens[name]}` });
      return r.status === 200 ? (r.json as { eventIds: string[] }).eventIds : null;
    };
    for (const name of TRADERS) {
      apps[name]!.send({ cmd: 'watch', eventId: watched[name] });
      await waitFor(
        async () => (await deskList(name, proxies[0]!.url))?.[0] === watched[name],
        `${name}'s watch list at the desk`,
      );
    }
    const put = await request(`${proxies[1]!.url}/watchlist`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${tokens.dee}`, 'content-type': 'application/json' },
      body: JSON.stringify({ eventIds: [watched.dee] }),
      dispatcher: agent,
    });
    expect(put.statusCode, await put.body.text()).toBe(200);
    const adminJson = (url: string) =>
      get(`${url}/admin`, { authorization: `Bearer ${admin}`, accept: 'application/json' });
    // The desk settled: each node lists both nodes live, then runs a desk-alert check that
    // reads that (while Redis is away the first live node by name, as last seen, speaks for
    // the desk: a node that never saw its peer would speak too).
    const alertChecks = async (url: string) => {
      const text = String((await get(`${url}/metrics`)).json);
      return Number(/^macrobell_relay_desk_alert_checks_total (\d+)/m.exec(text)?.[1] ?? NaN);
    };
    for (const n of nodes)
      await waitFor(async () => {
        const seen = ((await adminJson(n.url)).json as AdminJson | null)?.nodes ?? [];
        return seen.filter((x) => !x.stale).length === nodes.length;
      }, `${n.url} to see both nodes live`);
    const checksBefore = await Promise.all(nodes.map((n) => alertChecks(n.url)));
    expect(checksBefore.some(Number.isNaN), 'the checks counter on /metrics').toBe(false);
    await Promise.all(
      nodes.map((n, i) =>
        waitFor(
          async () => (await alertChecks(n.url)) > (checksBefore[i] ?? 0),
          `${n.url}: a desk-alert check that saw both nodes`,
          40_000,
        ),
      ),
    );
    const setupMs = Date.now() - t0;

    // ── the bursts and the faults ──────────────────────────────────────────────────
    const print = (ed: EventDate, i: number) =>
      simControl(sim.url, 'PATCH', `/_sim/event-dates/${ed.id}`, { actual: 50 + (i % 7) });
    const burst = async (b: number, faultAfter: number, fault: () => Promise<void>) => {
      const batch = releases.slice(b * PER_BURST, (b + 1) * PER_BURST);
      await Promise.all(batch.slice(0, faultAfter).map((ed, i) => print(ed, i)));
      const faulted = fault();
      await Promise.all(batch.slice(faultAfter).map((ed, i) => print(ed, i)));
      await faulted;
    };
    const healthz = (url: string) => get(`${url}/healthz`);
    const posted = (re: RegExp) => chat.texts.filter((t) => re.test(t)).length;
    const marks: Record<string, number> = {};

    // 1. Redis killed mid-burst: /healthz 503 with the reason on every node and through
    //    each proxy, the admin page says why it cannot answer, chat once; back: once.
    await burst(0, 40, async () => {
      await redis.kill('SIGKILL');
      marks.redisDown = Date.now();
      for (const url of [...nodes.map((n) => n.url), ...proxies.map((p) => p.url)])
        await waitFor(async () => {
          const h = await healthz(url);
          return (
            h.status === 503 && /redis|store/i.test(String((h.json as { reason?: string }).reason))
          );
        }, `${url}/healthz to say the store is down`);
      // The desk page still answers (#43): what the node knows, and why the store is away.
      const page = await adminJson(proxies[0]!.url);
      expect(page.status).toBe(200);
      expect((page.json as AdminJson).storeUnavailable?.reason).toMatch(/store|redis/i);
      await waitFor(() => posted(/Redis store is down/) === 1, 'chat: the store is down', 30_000);
      await redis.restart();
      marks.redisBack = Date.now();
    });
    await waitFor(() => posted(/Redis store is back/) === 1, 'chat: the store is back', 30_000);
    for (const url of nodes.map((n) => n.url))
      await waitFor(async () => (await healthz(url)).status === 200, `${url} healthy again`);

    // 2. and 3. Each node killed mid-burst: it answers nothing, the proxies answer from
    //    the other, the admin page marks it silent, chat once; back: once.
    for (const [b, n] of [
      [1, nodes[0]],
      [2, nodes[1]],
    ] as const) {
      await burst(b, 40, async () => {
        if (b === 2) {
          // The proxy itself, killed -9 and started again: its traders' apps go to the
          // next URL of their list meanwhile (no chat post: no relay can see a proxy).
          const caddy = proxies[1]!;
          await caddy.kill();
          marks.caddyDown = Date.now();
          expect((await healthz(caddy.url)).status).toBe(0);
          await caddy.restart();
          await waitFor(async () => (await healthz(caddy.url)).status === 200, 'caddy back');
        }
        await n.kill();
        marks[`${n.name}Down`] = Date.now();
        expect((await healthz(n.url)).status).toBe(0);
        for (const p of proxies) expect((await healthz(p.url)).status).toBe(200);
      });
      await waitFor(
        async () => {
          const nodesSeen = ((await adminJson(proxies[1]!.url)).json as AdminJson | null)?.nodes;
          // Silent, and why: it does not answer (its /healthz asked by the other node).
          return nodesSeen?.some(
            (x) =>
              x.node.endsWith(`:${n.port}`) &&
              x.stale &&
              x.silentReason === 'it does not answer: down',
          );
        },
        `the admin page to mark node ${n.name} silent`,
        60_000,
      );
      await waitFor(
        () => chat.texts.some((t) => nodeName(n).test(t) && /has not reported/.test(t)),
        `chat: node ${n.name} silent`,
        30_000,
      );
      await n.restart();
      await waitFor(
        () => chat.texts.some((t) => nodeName(n).test(t) && /reports again/.test(t)),
        `chat: node ${n.name} back`,
        30_000,
      );
    }

    // ── every trader: each print once ───────────────────────────────────────────────
    const ids = releases.map((r) => r.id);
    const alerted = (app: LineProcess) =>
      app.lines.filter((l) => l.t === 'alert' && l.kind === 'released').map((l) => l.id as string);
    const printFramesOf = (app: LineProcess) =>
      new Set(
        app.lines
          .filter((l) => l.t === 'frames')
          .flatMap((l) => l.frames as { type: string; eventDateId: string | null }[])
          .filter((f) => f.type === 'eventDate_updated')
          .map((f) => f.eventDateId),
      );
    // Until each trader has them all (else the counts below say which are missing). A
    // webhook refused twice during an outage comes back with the service's third try, 155 s
    // after its first (retries after 5 s, 30 s, 120 s): its frame may come that late.
    const lastFault = Math.max(...Object.values(marks));
    for (const name of TRADERS)
      await waitFor(
        () =>
          new Set(alerted(apps[name]!)).size >= ids.length &&
          ids.every((id) => printFramesOf(apps[name]!).has(id)),
        `${name}: every print`,
        Math.max(10_000, lastFault + 170_000 - Date.now()),
      ).catch(() => undefined);
    const report: Record<string, unknown> = {
      setupMs,
      totalMs: Date.now() - t0,
      faultsAtS: Object.fromEntries(
        Object.entries(marks).map(([k, v]) => [k, Math.round((v - t0) / 1000)]),
      ),
    };
    // The service's side of a missing frame: each try of its webhook, and the answer.
    const deliveries = await simControl<
      { payload: unknown; attempt: number; status: number | null; at: string }[]
    >(sim.url, 'GET', '/_sim/deliveries');
    const attemptsOf = (id: string) =>
      deliveries
        .filter((d) => JSON.stringify(d.payload).includes(id))
        .map((d) => `try ${d.attempt} at ${d.at.slice(11, 23)}: ${d.status ?? 'no answer'}`)
        .join(', ') || 'never sent';
    // The store's side of a missing frame: its stream id, and the trader's frames around it.
    const streamIds = await storedPrintIds(redis.url, REDIS_PASSWORD);
    const streamSide = (id: string, frameIds: string[]) => {
      const sid = streamIds.get(id);
      if (!sid) return 'not in the stream';
      const before = frameIds.filter((f) => compareEventIds(f, sid) < 0).at(-1);
      const after = frameIds.find((f) => compareEventIds(f, sid) > 0);
      return `stream id ${sid}; the trader's frames around it: ${before ?? 'none'} and ${after ?? 'none'}`;
    };
    for (const name of TRADERS) {
      const app = apps[name]!;
      const got = alerted(app);
      const missing = ids.filter((id) => !got.includes(id));
      const twice = got.filter((id, i) => got.indexOf(id) !== i);
      expect({ name, missing, twice }).toEqual({ name, missing: [], twice: [] });
      // Each alert in exactly one notification.
      const notified = app.lines
        .filter((l) => l.t === 'notification')
        .flatMap((l) => l.alertIds as string[]);
      expect(notified.length, `${name}: notifications`).toBe(new Set(notified).size);
      // The relay's stream itself, frame by frame as the app applied it: every print's
      // webhook once (the app's own reads may have shown it first), no frame twice.
      const frames = app.lines
        .filter((l) => l.t === 'frames')
        .flatMap((l) => l.frames as { id: string; type: string; eventDateId: string | null }[]);
      const frameIds = frames.map((f) => f.id);
      const repeated = frameIds.filter((id, i) => frameIds.indexOf(id) !== i);
      const printFrames = frames
        .filter((f) => f.type === 'eventDate_updated' && ids.includes(f.eventDateId ?? ''))
        .map((f) => f.eventDateId as string);
      const framesMissing = ids.filter((id) => !printFrames.includes(id));
      const framesTwice = printFrames.filter((id, i) => printFrames.indexOf(id) !== i);
      expect(
        { name, repeated, framesMissing, framesTwice },
        [
          ...framesMissing.map(
            (id) => `${name} ${id}: ${attemptsOf(id)}; ${streamSide(id, frameIds)}`,
          ),
          `${name}'s states: ${app.lines
            .filter((l) => l.t === 'state')
            .map(
              (l) =>
                `${new Date(l.at as number).toISOString().slice(11, 23)} ${String(l.state)} ${String(l.relay)}`,
            )
            .join(', ')}`,
          ...(framesMissing.length > 0 ? streamDrops(appDirs[name]!) : []),
        ].join('\n'),
      ).toEqual({
        name,
        repeated: [],
        framesMissing: [],
        framesTwice: [],
      });
      // Which path brought each print first: the relay's stream, or the app's own reads.
      const firstBy = new Map<string, string>();
      for (const l of app.lines.filter((x) => x.t === 'changes'))
        for (const c of l.items as { source: string; kind: string; id: string }[])
          if (c.kind === 'released' && ids.includes(c.id) && !firstBy.has(c.id))
            firstBy.set(c.id, c.source);
      const bySource: Record<string, number> = {};
      for (const src of firstBy.values()) bySource[src] = (bySource[src] ?? 0) + 1;
      const states = app.lines
        .filter((l) => l.t === 'state')
        .map((l) => `${Math.round((l.at - t0) / 1000)}s ${String(l.state)} ${String(l.relay)}`);
      report[name] = {
        alerts: got.length,
        frames: frames.length,
        bySource,
        states: states.join(', '),
      };
    }
    console.log('desk in a box:', JSON.stringify(report));

    // ── the people survived ─────────────────────────────────────────────────────────
    for (const name of [...TRADERS, 'dee'])
      expect(await deskList(name, proxies[1]!.url)).toEqual([watched[name]]);
    const users = await relayCommand(['users', 'list', ...onRedis], redisEnv);
    for (const name of [...TRADERS, 'dee']) expect(users.stdout).toContain(name);
    const page = await adminJson(proxies[0]!.url);
    expect(page.status).toBe(200);
    expect(redis.log()).not.toMatch(/NOPERM|CRITICAL/);

    // ── each fault told once, with its reason; nothing else ─────────────────────────
    expect(chat.texts).toEqual([
      expect.stringMatching(/^:rotating_light: The desk's Redis store is down, seen by relay \S+ \(.+\)/),
      expect.stringMatching(/^:white_check_mark: The desk's Redis store is back/),
      expect.stringMatching(new RegExp(`Relay node \\S+:${nodes[0].port} has not reported for \\d+ s \\(it does not answer: down\\)`)),
      expect.stringMatching(new RegExp(`Relay node \\S+:${nodes[0].port} reports again`)),
      expect.stringMatching(new RegExp(`Relay node \\S+:${nodes[1].port} has not reported for \\d+ s \\(it does not answer: down\\)`)),
      expect.stringMatching(new RegExp(`Relay node \\S+:${nodes[1].port} reports again`)),
    ]); // prettier-ignore
  }, 480_000);
});

interface AdminJson {
  nodes: { node: string; stale: boolean; silentReason: string | null }[];
  storeUnavailable?: { reason: string };
}

/** Each print's stream id in the desk's Redis (read as the relay's user), by event date. */
async function storedPrintIds(url: string, password: string): Promise<Map<string, string>> {
  const client = new Redis(url, { username: RELAY_ACL_USER, password, lazyConnect: true });
  try {
    await client.connect();
    const entries = (await client.xrange(STREAM, '-', '+')) as [string, string[]][];
    const ids = new Map<string, string>();
    for (const [id, fields] of entries) {
      const body = fields[fields.indexOf('body') + 1] ?? '';
      const m = /"eventDateId":"([^"]+)"/.exec(body);
      if (m?.[1] && !ids.has(m[1])) ids.set(m[1], id);
    }
    return ids;
  } finally {
    client.disconnect();
  }
}

/** Why the app's relay stream dropped, each time, as its log says (for a failure's message). */
function streamDrops(dataDir: string): string[] {
  let text = '';
  try {
    text = readFileSync(join(dataDir, 'logs', 'macrobell.log'), 'utf8');
  } catch {
    return ['(no app log)'];
  }
  return text
    .split('\n')
    .filter((l) => l.includes('relay connection lost'))
    .map((l) => {
      const e = JSON.parse(l) as { time?: number | string; err?: { message?: string } };
      return `stream dropped ${String(e.time)}: ${e.err?.message ?? '?'}`;
    });
}
