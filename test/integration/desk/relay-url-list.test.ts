// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the calendar of a simulator started today)
/**
 * The documented HA list in desk mode: `MACROBELL_RELAY_URL=url1,url2` (two relay nodes on
 * one Redis, the simulator as the service). The app core reads the calendar and the news
 * through the gateway of the node that answers: with the first node dead, every read goes
 * to the second — one refused connection to find out, then straight to the live node — and
 * when the second dies and the first is back, it moves back. Never "Invalid URL".
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { relayNodes } from '../../../src/main/auth/relay-failover.js';
import { HttpClient, type HttpRequest } from '../../../src/node/http/client.js';
import { createAppService } from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { RedisUserStore } from '../../../src/relay/users/redis-users.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { startSimulator } from '../../../src/simulator/index.js';
import { startRedis } from '../relay/redis-server.js';
import { waitFor } from '../../support/wait.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});
const temp = (p: string) => mkdtempSync(join(tmpdir(), p));

async function desk() {
  const sim = await startSimulator({ port: 0, seed: 5, autoplay: false, log: () => undefined });
  cleanups.push(() => sim.close());
  const redis = await startRedis();
  cleanups.push(() => redis.stop());
  const node = async (port = 0) => {
    const relay = await startRelay({
      dataDir: temp('mb-urllist-node-'),
      secret: 'url-list-secret',
      token: 'url-list-legacy',
      port,
      redis: { url: redis.url },
      desk: {
        keys: { publicKey: sim.clientId, privateKey: sim.clientSecret },
        authUrl: sim.authUrl,
      },
      gateway: { calendarUrl: sim.calendarUrl, newsUrl: sim.newsUrl },
    });
    cleanups.push(() => relay.close());
    return relay;
  };
  const users = await RedisUserStore.open(redis.url);
  cleanups.push(() => users.close());
  const { token } = await users.add('trader');
  return { sim, node, token, a: await node(), b: await node() };
}

describe('MACROBELL_RELAY_URL with two nodes in desk mode', () => {
  it('reads the calendar and news through the live node when the first is dead', async () => {
    const { sim, a, b, token } = await desk();
    const aUrl = a.url;
    await a.close(); // the first node of the list is down before the app starts
    const app = await createAppService({
      dataDir: temp('mb-urllist-app-'),
      secretStore: new MemorySecretStore(),
      logFile: null,
      logLevel: 'silent',
      env: {
        MACROBELL_RELAY_URL: `${aUrl},${b.url}`,
        MACROBELL_RELAY_TOKEN: token,
        MACROBELL_CALENDAR_URL: sim.calendarUrl,
        MACROBELL_NEWS_URL: sim.newsUrl,
      },
    });
    cleanups.push(() => app.stop());
    expect((await app.api.getSettings()).connection).toBe('desk');
    const test = await app.api.testConnection();
    expect(test.ok, JSON.stringify(test)).toBe(true);
    await app.start();
    await waitFor(
      async () => (await app.api.listPosts({ page: 1, pageSize: 5 })).items.length > 0,
      'news through the live node',
    );
    await waitFor(() => app.upcomingReleases(5).length > 0, 'the calendar through the live node');
    const status = JSON.stringify(await app.api.getStatus());
    expect(status).not.toMatch(/Invalid URL|cannot be reached|Offline/i);
  }, 60_000);

  it('goes to the live node, stays there, and moves back when it dies and the other is back', async () => {
    const { a, b, token, node } = await desk();
    const asked: string[] = [];
    const inner = new HttpClient();
    cleanups.push(() => inner.close());
    const recording = Object.assign(Object.create(inner) as HttpClient, {
      requestJson: (req: HttpRequest) => {
        asked.push(new URL(req.url).port);
        return inner.requestJson(req);
      },
    });
    const nodes = relayNodes(() => `${a.url}, ${b.url}`, recording);
    const read = () =>
      nodes.request({
        url: `${nodes.preferred() as string}/service/calendar/en/api/v1/categories`,
        headers: { authorization: `Bearer ${token}` },
      });
    const [aPort, bPort] = [String(a.port), String(b.port)];
    expect((await read()).status).toBe(200);
    expect(asked).toEqual([aPort]);
    await a.close();
    asked.length = 0;
    expect((await read()).status).toBe(200);
    expect(asked).toEqual([aPort, bPort]); // one refused connection, then the live node
    expect(nodes.preferred()).toBe(b.url);
    asked.length = 0;
    expect((await read()).status).toBe(200);
    expect(asked).toEqual([bPort]); // straight to the live node
    const aAgain: RunningRelay = await node(a.port);
    await b.close();
    asked.length = 0;
    expect((await read()).status).toBe(200);
    expect(asked).toEqual([bPort, aPort]);
    expect(nodes.preferred()).toBe(aAgain.url);
  }, 60_000);
});
