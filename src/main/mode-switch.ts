/**
 * Demo ⇄ live without a restart. Saving API keys while on demo data starts a core on the
 * real service (its own database) and retires the demo one; removing the keys goes back
 * to the demo. Hosts (the Electron glue, the web host) hold this object: its api, its
 * events and its lifecycle follow whichever core is current, so their handlers and
 * subscriptions survive the switch. The renderer sees `status.demo` change and reloads.
 */
import { EventEmitter } from 'node:events';
import type { AppApi } from '../shared/ipc.js';
import { PUSH_EVENTS } from '../shared/channels.js';
import type { AppService, AppServiceOptions } from './service.js';
import type { ServiceEvents, Unsubscribe } from './service-contract.js';

export type CreateAppService = (opts: AppServiceOptions) => Promise<AppService>;

const FORWARDED = [...PUSH_EVENTS, 'notification'] as (keyof ServiceEvents)[];

export async function createModeSwitchingService(
  create: CreateAppService,
  opts: AppServiceOptions,
): Promise<AppService> {
  let current = await create(opts);
  // Only an 'auto' app follows the keys; a forced demo or live app stays as it was asked.
  if ((opts.mode ?? 'auto') !== 'auto') return current;

  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  const forward = (s: AppService): Unsubscribe[] =>
    FORWARDED.map((e) => s.on(e, (payload) => emitter.emit(e, payload)));
  let unsubscribe = forward(current);
  let started = false;
  let stopped = false;
  /** A switch in progress: requests wait for it rather than reach a core being closed. */
  let switching: Promise<void> = Promise.resolve();

  const switchTo = (demo: boolean): Promise<void> => {
    const run = switching.then(async () => {
      if (stopped || current.demo === demo) return;
      // The new core first: if it cannot start, the current one stays and the caller hears why.
      const next = await create({ ...opts, mode: demo ? 'demo' : 'real' });
      const previous = current;
      unsubscribe.forEach((off) => off());
      current = next;
      unsubscribe = forward(next);
      await previous.stop();
      if (started) void next.start().catch(() => undefined); // progress arrives as pushes
      emitter.emit('status', await next.api.getStatus());
    });
    switching = run.catch(() => undefined);
    return run;
  };

  const delegate = <M extends keyof AppApi>(method: M) =>
    (async (input?: unknown) => {
      await switching;
      return (current.api[method] as (i?: unknown) => Promise<unknown>)(input);
    }) as AppApi[M];

  const api = Object.fromEntries(
    (Object.keys(current.api) as (keyof AppApi)[]).map((m) => [m, delegate(m)]),
  ) as AppApi;
  api.setCredentials = async (input) => {
    await switching;
    await current.api.setCredentials(input);
    if (current.demo) await switchTo(false);
    return current.api.getCredentials();
  };
  api.clearCredentials = async (input) => {
    await switching;
    await current.api.clearCredentials(input);
    if (!current.demo) await switchTo(true);
    return current.api.getCredentials();
  };

  // Desk mode is live without keys: choosing it leaves the demo, leaving it without keys returns.
  api.updateSettings = async (patch) => {
    await switching;
    await current.api.updateSettings(patch);
    if (patch?.connection === 'desk' && current.demo) await switchTo(false);
    if (patch?.connection === 'keys' && !current.demo) {
      const creds = await current.api.getCredentials();
      if (!creds.configured) await switchTo(true);
    }
    return current.api.getSettings();
  };

  return {
    api,
    get demo() {
      return current.demo;
    },
    get dataDir() {
      return current.dataDir;
    },
    get simulatorUrl() {
      return current.simulatorUrl;
    },
    on(event, listener) {
      emitter.on(event, listener);
      return () => emitter.off(event, listener);
    },
    upcomingReleases(limit) {
      try {
        return current.upcomingReleases(limit);
      } catch {
        return []; // mid-switch, the old core's database is closing: the tray asks again
      }
    },
    async start() {
      started = true;
      await switching;
      await current.start();
    },
    async stop() {
      stopped = true;
      await switching;
      unsubscribe.forEach((off) => off());
      await current.stop();
    },
  };
}
