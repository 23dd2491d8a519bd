/** Starts a simulator and the real app service on a temp data dir, for core tests. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import {
  createAppService,
  type AppService,
  type AppServiceOptions,
} from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import type { ServiceEvents } from '../../../src/main/service-contract.js';
import type { NativeNotification } from '../../../src/shared/domain.js';
export { waitFor } from '../../support/wait.js';

export interface CoreHarness {
  sim: RunningSimulator;
  service: AppService;
  dataDir: string;
  secrets: MemorySecretStore;
  events: { [E in keyof ServiceEvents]: ServiceEvents[E][] };
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export async function startCore(
  opts: {
    sim?: RunningSimulator;
    dataDir?: string;
    keys?: { publicKey: string; privateKey: string };
    service?: Partial<AppServiceOptions>;
  } = {},
): Promise<CoreHarness> {
  const keys = opts.keys ?? { publicKey: 'demo-public', privateKey: 'demo-private' };
  const sim =
    opts.sim ??
    (await startSimulator({
      port: 0,
      seed: 7,
      autoplay: false,
      clientId: keys.publicKey,
      clientSecret: keys.privateKey,
    }));
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'mb-core-'));
  const secrets = new MemorySecretStore();
  await secrets.set('publicKey', keys.publicKey);
  await secrets.set('privateKey', keys.privateKey);
  const env = {
    MACROBELL_AUTH_URL: sim.authUrl,
    MACROBELL_CALENDAR_URL: sim.calendarUrl,
    MACROBELL_NEWS_URL: sim.newsUrl,
  };
  const service = await createAppService({
    dataDir,
    mode: 'real',
    secretStore: secrets,
    logFile: join(dataDir, 'logs', 'macrobell.log'),
    ...opts.service,
    env: { ...env, ...opts.service?.env },
  });
  const events = {
    changes: [],
    alert: [],
    status: [],
    backfill: [],
    navigate: [],
    banner: [],
    fallback: [],
    update: [],
    settings: [],
    alertsRead: [],
    notification: [],
  } as CoreHarness['events'];
  for (const name of Object.keys(events) as (keyof ServiceEvents)[]) {
    service.on(name, (p) => (events[name] as unknown[]).push(p));
  }
  return {
    sim,
    service,
    dataDir,
    secrets,
    events,
    env,
    async close() {
      await service.stop();
      if (!opts.sim) await sim.close();
    },
  };
}

/**
 * The app in demo mode on a temp folder (`mb-<label>-`), started: its own simulator (seed 5,
 * paused, at real speed), each native notification it shows pushed to `notifications`.
 */
export async function startDemoService(
  label: string,
  notifications: NativeNotification[],
): Promise<AppService> {
  const service = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), `mb-${label}-`)),
    mode: 'demo',
    secretStore: new MemorySecretStore(),
    demo: { seed: 5, autoplay: false, speed: 1 },
    logFile: null,
    logLevel: 'silent',
  });
  service.on('notification', (n) => notifications.push(n));
  // A service that fails to start is stopped here: the caller never got it to stop.
  await service.start().catch(async (err: unknown) => {
    await service.stop();
    throw err;
  });
  return service;
}

export async function simJson<T = unknown>(
  sim: RunningSimulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}
