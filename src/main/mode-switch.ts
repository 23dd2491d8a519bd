/**
 * Demo ⇄ live without a restart. Saving API keys while on demo data starts a core on the
 * real service (its own database) and retires the demo one; removing the keys goes back
 * to the demo. Hosts (the Electron glue, the web host) hold this object: its api, its
 * events and its lifecycle follow whichever core is current, so their handlers and
 * subscriptions survive the switch. The renderer sees `status.demo` change and reloads.
 */
import { PUSH_EVENTS, type AppApi, type PushEvent } from '../shared/ipc.js';
import { DisposableStore, toDisposable } from '../shared/event.js';
import { messageOf } from '../shared/error-message.js';
import type { AppService, AppServiceOptions } from './service.js';
import { createPushEmitters, onPush } from './service-contract.js';

/** How long to wait between asks of a keychain that did not answer at start (the last repeats). */
export const KEYCHAIN_RETRY_MS = [2_000, 5_000, 10_000, 30_000] as const;

export type CreateAppService = (opts: AppServiceOptions) => Promise<AppService>;

/** The current core, and the switch to another (one at a time; requests wait for it). */
class CoreSwitch {
  /** The pushes the hosts hear, whichever core is current. */
  readonly events = createPushEmitters();
  started = false;
  private stopped = false;
  /** The subscriptions to the current core's pushes, ended when it is switched away. */
  private readonly forwarding = new DisposableStore();
  /** A switch in progress: requests wait for it rather than reach a core being closed. */
  private switching: Promise<void> = Promise.resolve();
  private keychainTimer: NodeJS.Timeout | undefined;
  private wakeKeychainWatch: (() => void) | undefined;

  constructor(
    public current: AppService,
    private readonly create: CreateAppService,
    private readonly opts: AppServiceOptions,
    readonly onError: (err: unknown) => void,
  ) {
    this.forward(current);
  }

  /** The current core, once any switch under way is done. */
  async settled(): Promise<AppService> {
    await this.switching;
    return this.current;
  }

  switchTo(demo: boolean): Promise<void> {
    const run = this.switching.then(async () => {
      if (this.stopped || this.current.demo === demo) return;
      // The new core first: if it cannot start, the current one stays and the caller hears why.
      const next = await this.create({ ...this.opts, mode: demo ? 'demo' : 'real' });
      const previous = this.current;
      this.forwarding.clear();
      this.current = next;
      this.forward(next);
      await previous.stop();
      // Progress arrives as pushes; a start that fails is told, not dropped.
      if (this.started) void next.start().catch(this.onError);
      this.events.status.fire(await next.api.getStatus());
    });
    this.switching = run.catch(() => undefined);
    return run;
  }

  /**
   * Started on demo data because the keychain did not answer (locked, or its service not
   * up yet at login), not because no keys are stored: ask it again until it answers, then
   * go live if it holds keys. Without this, a keychain late at login meant demo data for
   * the whole session. The status says why meanwhile (the keychain banner).
   */
  async watchKeychain(delays: readonly number[] = KEYCHAIN_RETRY_MS): Promise<void> {
    for (let attempt = 0; !this.stopped && this.current.demo; attempt++) {
      const creds = await this.current.api.getCredentials();
      if (creds.keychainAvailable) {
        if (creds.configured) await this.switchTo(false);
        return;
      }
      await new Promise<void>((resolve) => {
        this.keychainTimer = setTimeout(resolve, delays[Math.min(attempt, delays.length - 1)]);
        this.keychainTimer.unref?.();
        this.wakeKeychainWatch = resolve;
      });
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.keychainTimer);
    this.wakeKeychainWatch?.();
    await this.switching;
    this.forwarding.dispose();
    await this.current.stop();
  }

  /** Each push of the contract once (PUSH_EVENTS, derived from its type). */
  private forward(s: AppService): void {
    for (const name of PUSH_EVENTS) this.forwardOne(s, name);
  }

  private forwardOne<E extends PushEvent>(s: AppService, name: E): void {
    const emitter = this.events[name];
    this.forwarding.add(toDisposable(s.on(name, (payload) => emitter.fire(payload))));
  }
}

/** The API of whichever core is current; saving or removing keys (or a desk) switches. */
function switchingApi(sw: CoreSwitch): AppApi {
  const delegate = <M extends keyof AppApi>(method: M) =>
    (async (input?: unknown) =>
      ((await sw.settled()).api[method] as (i?: unknown) => Promise<unknown>)(input)) as AppApi[M];
  const api = Object.fromEntries(
    (Object.keys(sw.current.api) as (keyof AppApi)[]).map((m) => [m, delegate(m)]),
  ) as AppApi;
  api.setCredentials = async (input) => {
    await (await sw.settled()).api.setCredentials(input);
    if (sw.current.demo) await sw.switchTo(false);
    return sw.current.api.getCredentials();
  };
  api.clearCredentials = async (input) => {
    await (await sw.settled()).api.clearCredentials(input);
    if (!sw.current.demo) await sw.switchTo(true);
    return sw.current.api.getCredentials();
  };
  // Desk mode is live without keys: choosing it leaves the demo, leaving it without keys returns.
  api.updateSettings = async (patch) => {
    await (await sw.settled()).api.updateSettings(patch);
    if (patch?.connection === 'desk' && sw.current.demo) await sw.switchTo(false);
    if (patch?.connection === 'keys' && !sw.current.demo) {
      const creds = await sw.current.api.getCredentials();
      if (!creds.configured) await sw.switchTo(true);
    }
    return sw.current.api.getSettings();
  };
  return api;
}

export async function createModeSwitchingService(
  create: CreateAppService,
  opts: AppServiceOptions,
  tuning: { keychainRetryMs?: readonly number[]; onError?: (err: unknown) => void } = {},
): Promise<AppService> {
  const first = await create(opts);
  // Only an 'auto' app follows the keys; a forced demo or live app stays as it was asked.
  if ((opts.mode ?? 'auto') !== 'auto') return first;
  const onError =
    tuning.onError ??
    ((err: unknown) => console.warn('macrobell: switching data sources:', messageOf(err)));
  const sw = new CoreSwitch(first, create, opts, onError);
  return {
    api: switchingApi(sw),
    get demo() {
      return sw.current.demo;
    },
    get dataDir() {
      return sw.current.dataDir;
    },
    get simulatorUrl() {
      return sw.current.simulatorUrl;
    },
    on: (event, listener) => onPush(sw.events, event, listener),
    upcomingReleases(limit) {
      try {
        return sw.current.upcomingReleases(limit);
      } catch {
        return []; // mid-switch, the old core's database is closing: the tray asks again
      }
    },
    async start() {
      sw.started = true;
      await (await sw.settled()).start();
      // A failed switch leaves the demo core running; its banner still names the keychain.
      sw.watchKeychain(tuning.keychainRetryMs).catch(onError);
    },
    stop: () => sw.stop(),
  };
}
