/**
 * The desk gateway under a safety-net poll: N desktops in desk mode (each its own trader)
 * read one release through the relay's gateway while every webhook is lost, so only the
 * safety net finds the print. Upstream requests per second at the service (the simulator
 * counts them) for one desktop against N, and print → alert on every desktop.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventDate } from '../src/shared/domain.js';
import { createAppService, type AppService } from '../src/main/service.js';
import { MemorySecretStore } from '../src/main/secrets/index.js';
import { startRelay, type RunningRelay } from '../src/relay/server.js';
import { openRelayDatabase } from '../src/relay/db/relay-db.js';
import { UserDirectory } from '../src/relay/users/users.js';
import { startSimulator, type RunningSimulator } from '../src/simulator/index.js';
import { summarize } from './lib.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function desktops(relay: RunningRelay, dataDir: string, n: number): Promise<AppService[]> {
  const db = openRelayDatabase(dataDir);
  const users = new UserDirectory(db);
  const tokens = Array.from({ length: n }, () => users.add(`t${Math.random()}`.slice(0, 12)));
  db.close();
  const apps: AppService[] = [];
  for (const { token } of tokens) {
    const app = await createAppService({
      dataDir: mkdtempSync(join(tmpdir(), 'mb-bench-gw-app-')),
      secretStore: new MemorySecretStore(),
      logFile: null,
      logLevel: 'silent',
      env: { MACROBELL_RELAY_URL: relay.url, MACROBELL_RELAY_TOKEN: token },
      alertDelivery: { coalesceMs: 0, maxPerMinute: 10_000 },
    });
    await app.start();
    apps.push(app);
  }
  return apps;
}

/** One release polled by `n` desktops: upstream requests/s around it, print → alert delays. */
async function round(sim: RunningSimulator, relay: RunningRelay, dataDir: string, n: number) {
  const apps = await desktops(relay, dataDir, n);
  try {
    const first = [...sim.state.eventDates.values()][0] as EventDate;
    const at = Date.now() + 20_000;
    const res = await fetch(`${sim.url}/_sim/event-dates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        eventId: first.eventId,
        dateUtc: new Date(at).toISOString(),
        volatility: 'HIGH',
      }),
    });
    const release = (await res.json()) as EventDate;
    const window = {
      from: new Date(at - 1000).toISOString(),
      to: new Date(at + 1000).toISOString(),
    };
    const known = async () => {
      for (const app of apps)
        if (!(await app.api.listEventDates(window)).some((d) => d.id === release.id)) return false;
      return true;
    };
    while (!(await known())) {
      if (Date.now() > at - 4000) throw new Error('the desktops did not learn the release in time');
      await Promise.all(apps.map((app) => app.api.syncNow()));
      await sleep(200);
    }
    const alertedAt: number[] = [];
    const offs = apps.map((app) =>
      app.on('alert', (a) => {
        if (a.kind === 'released' && a.target.type === 'eventDate') alertedAt.push(Date.now());
      }),
    );
    // The poll window: from 3 s before the release to the print, 2 s after it.
    await sleep(Math.max(0, at - 3000 - Date.now()));
    const before = sim.state.apiRequests;
    const t0 = Date.now();
    await sleep(Math.max(0, at + 2000 - Date.now()));
    await fetch(`${sim.url}/_sim/event-dates/${release.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ actual: 1.5 }),
    });
    const printedAt = Date.now();
    const deadline = printedAt + 20_000;
    while (alertedAt.length < n && Date.now() < deadline) await sleep(20);
    const requests = sim.state.apiRequests - before;
    const seconds = (Date.now() - t0) / 1000;
    offs.forEach((off) => off());
    const delays = alertedAt.map((t) => t - printedAt);
    return { perSecond: requests / seconds, ...summarize(delays), missed: n - delays.length };
  } finally {
    await Promise.all(apps.map((a) => a.stop()));
  }
}

export async function benchGateway(quick: boolean) {
  const n = quick ? 4 : 20;
  const sim = await startSimulator({ port: 0, seed: 9, autoplay: false });
  const dataDir = mkdtempSync(join(tmpdir(), 'mb-bench-gw-relay-'));
  const relay = await startRelay({
    dataDir,
    secret: 'bench-gateway-secret',
    token: 'bench-gateway-legacy',
    desk: { keys: { publicKey: sim.clientId, privateKey: sim.clientSecret }, authUrl: sim.authUrl },
    gateway: { calendarUrl: sim.calendarUrl, newsUrl: sim.newsUrl },
  });
  try {
    // No webhook is registered with the simulator: every delivery is lost, the safety
    // net alone finds the print.
    const one = await round(sim, relay, dataDir, 1);
    const many = await round(sim, relay, dataDir, n);
    return { desktops: n, one, many };
  } finally {
    await relay.close();
    await sim.close();
  }
}
