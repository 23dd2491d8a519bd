/**
 * The composition root of the main process: wires secrets, auth, API clients, store,
 * sync and alerts, and exposes the app's API (src/shared/ipc.ts) to the hosts — the
 * Electron glue and the web-mode host. Plain Node: no Electron here. It only wires: the
 * credentials API, the status, the settings fan-out and the API table live in ./service/.
 */
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { platform, release } from 'node:os';
import { join } from 'node:path';
import type { AppStatus, EventDate, Settings } from '../shared/domain.js';
import type { AppApi } from '../shared/ipc.js';
import { AlertsEngine, type AlertsEngineOptions } from './alerts/index.js';
import { NewsWindowAlerts } from './notify/news-window-alerts.js';
import { realTimers } from '../shared/timers.js';
import { createApiClients } from './api/index.js';
import { TokenManager } from './auth/index.js';
import { createDeskConnection } from './auth/desk-token-source.js';
import { WatchlistSync } from './desk/watchlist-sync.js';
import { PresenceReporter, desktopId, osLabel } from './desk/presence-reporter.js';
import { clientCredentialsSource } from '../node/oauth/client-credentials.js';
import { startDemoMarket, type DemoMarket } from './demo.js';
import { SettingsFile, applyEnvOverrides } from './config/settings-file.js';
import { createLogger } from '../node/log/logger.js';
import { KeytarSecretStore, MemorySecretStore, type SecretStore } from './secrets/index.js';
import type { MacrobellService, ServiceEvents, Unsubscribe } from './service-contract.js';
import { logSlowReads } from './store/slow-log.js';
import { openStore, type Store } from './store/index.js';
import { PruneScheduler } from './store/prune-schedule.js';
import { ChangeApplier } from './sync/applier.js';
import { SyncEngine } from './sync/engine.js';
import type { RelayConsumerFactory } from './sync/live-source.js';
import type { SafetyNetTuning } from './sync/safety-net.js';
import { RelayConsumer } from './sync/relay-consumer.js';
import { ServiceHealth, observeApis } from './sync/service-health.js';
import type { WebhookReceiver } from './sync/webhook-receiver.js';
import { createApiTable } from './service/api-table.js';
import { createCredentials } from './service/credentials.js';
import { connectDemoWebhooks } from './service/demo-webhooks.js';
import { createSettingsFanout } from './service/settings-fanout.js';
import { createStatusReporter } from './service/status.js';

const COVERED_SINCE_KEY = 'alerts.coveredSince';

export const DEMO_KEYS = { publicKey: 'demo-public', privateKey: 'demo-private' } as const;

export interface AppServiceOptions {
  dataDir: string;
  /** auto: demo (embedded simulator) when no keys are configured. */
  mode?: 'auto' | 'demo' | 'real';
  /** better-sqlite3 binary built for Electron's ABI. */
  nativeBinding?: string;
  /** The desktop app's version, for diagnostics. */
  appVersion?: string;
  /** Defaults to the OS keychain. */
  secretStore?: SecretStore;
  logFile?: string | null;
  logLevel?: string;
  /** Demo simulator: clock speed (1 = real time), seed, and whether it plays by itself. */
  demo?: { speed?: number; seed?: number; autoplay?: boolean };
  env?: NodeJS.ProcessEnv;
  relayConsumer?: RelayConsumerFactory;
  now?: () => number;
  /** Notification grouping and rate limit (tests and benchmarks; users keep the defaults). */
  alertDelivery?: Pick<AlertsEngineOptions, 'coalesceMs' | 'settleMs' | 'maxPerMinute'>;
  /** The safety net's periods (tests and benchmarks; users keep the defaults). */
  safetyNet?: Partial<SafetyNetTuning>;
}

export interface AppService extends MacrobellService {
  /** The embedded simulator's base URL in demo mode (tests drive its control API). */
  readonly simulatorUrl: string | undefined;
}

export async function createAppService(opts: AppServiceOptions): Promise<AppService> {
  const now = opts.now ?? Date.now;
  // The database, its WAL and the logs hold the user's data: readable by the user only.
  process.umask(0o077);
  mkdirSync(opts.dataDir, { recursive: true });
  const logFile =
    opts.logFile === null ? null : (opts.logFile ?? join(opts.dataDir, 'logs', 'macrobell.log'));
  const logger = createLogger({ file: logFile ?? undefined, level: opts.logLevel ?? 'info' });
  const settingsFile = SettingsFile.inDir(opts.dataDir);
  // Fail early, with the variable's name, on a bad MACROBELL_* override.
  applyEnvOverrides(settingsFile.get(), opts.env ?? process.env);
  const keychain = opts.secretStore ?? new KeytarSecretStore();
  const keychainStatus = await keychain.available();
  const storedKeys = keychainStatus.ok
    ? { publicKey: await keychain.get('publicKey'), privateKey: await keychain.get('privateKey') }
    : { publicKey: null, privateKey: null };
  const mode = opts.mode ?? 'auto';
  // Desk mode (tokens from the desk relay, no keys here) is live too.
  const desk = createDeskConnection({
    settings: () => applyEnvOverrides(settingsFile.get(), opts.env ?? process.env),
    env: opts.env ?? process.env,
    keychainToken: () => keychain.get('relayToken'),
    keysStored: Boolean(storedKeys.publicKey && storedKeys.privateKey),
  });
  const demo =
    mode === 'demo' ||
    (mode === 'auto' && !(storedKeys.publicKey && storedKeys.privateKey) && !desk.isDesk());

  let simulator: DemoMarket | undefined;
  if (demo) {
    simulator = await startDemoMarket({
      seed: opts.demo?.seed ?? 1,
      speed: opts.demo?.speed ?? 1,
      autoplay: opts.demo?.autoplay ?? true,
    });
    logger.info({ url: simulator.url }, 'demo mode: embedded simulator started');
  }
  const demoSecrets = new MemorySecretStore();
  if (demo) {
    await demoSecrets.set('publicKey', simulator?.clientId ?? DEMO_KEYS.publicKey);
    await demoSecrets.set('privateKey', simulator?.clientSecret ?? DEMO_KEYS.privateKey);
  }
  const credentialSource: SecretStore = demo ? demoSecrets : keychain;

  /** What the app runs with: the file's settings, with demo/env overrides that are never saved. */
  const effective = (): Settings => {
    const s = settingsFile.get();
    if (simulator) {
      return {
        ...s,
        serviceUrls: {
          auth: simulator.authUrl,
          calendar: simulator.calendarUrl,
          news: simulator.newsUrl,
        },
        relayUrl: null,
      };
    }
    return desk.view(applyEnvOverrides(s, opts.env ?? process.env));
  };

  const store = logSlowReads(
    openStore({
      path: join(opts.dataDir, demo ? 'demo.db' : 'macrobell.db'),
      nativeBinding: opts.nativeBinding,
    }),
    logger,
  );
  // notifications_applied and tombstones would grow without bound: prune when idle.
  const pruning = new PruneScheduler({ store, logger }).start();
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  const emit = <E extends keyof ServiceEvents>(event: E, payload: ServiceEvents[E]) =>
    emitter.emit(event, payload);

  const keysSource = clientCredentialsSource({
    authUrl: () => effective().serviceUrls.auth,
    credentials: async () => {
      const [publicKey, privateKey] = await Promise.all([
        credentialSource.get('publicKey'),
        credentialSource.get('privateKey'),
      ]);
      return publicKey && privateKey ? { publicKey, privateKey } : null;
    },
  });
  const tokens = new TokenManager({ source: demo ? keysSource : desk.source(keysSource) });
  // Every request's outcome feeds the one connection state (sync/service-health.ts).
  const health = new ServiceHealth(now);
  const clients = createApiClients({
    // Desk mode reads through the relay's gateway: no service token on this machine.
    urls: () => (demo ? effective().serviceUrls : desk.apiUrls(effective().serviceUrls)),
    language: () => effective().language,
    tokens,
    logger,
  });
  const { calendar, news } = observeApis(health, clients.calendar, clients.news);

  // Prints from before this store first ran are history, not news (alerts/decide.ts newPrint).
  const coveredSince = coverageStart(store, now());
  const alerts = new AlertsEngine({
    ...opts.alertDelivery,
    store,
    coveredSince: () => coveredSince,
    now,
    rules: () => effective().alertRules,
    timeZone: () => effective().timeZone,
    hourCycle: () => effective().hourCycle,
    sink: (n) => emit('notification', n),
    onError: (err) => logger.warn({ err }, 'alerts: a notification could not be delivered'),
    onAlert: (a) => {
      emit('alert', a);
      pushStatus();
    },
  });

  const newsWindowAlerts = new NewsWindowAlerts({
    settings: () => effective().newsWindow,
    upcoming: (q) => store.upcoming(q),
    notify: (n) => emit('notification', n),
    timeZone: () => effective().timeZone,
    hourCycle: () => effective().hourCycle,
    now,
    timers: realTimers,
    onError: (err) => logger.warn({ err }, 'news windows: an alert failed'),
  });

  const applier = new ChangeApplier({
    store,
    calendar,
    news,
    alerts,
    logger,
    cultures: () => effective().cultures,
    onChanges: (changes) => {
      emit('changes', changes);
      if (
        changes.some(
          (c) =>
            c.kind === 'rescheduled' ||
            c.kind === 'eventDateAdded' ||
            c.kind === 'eventDateRemoved',
        )
      ) {
        sync.replanBursts();
      }
    },
  });

  const sync: SyncEngine = new SyncEngine({
    store,
    calendar,
    news,
    applier,
    health,
    settings: effective,
    directWebhooks: () => receiver !== null,
    relayToken: () => desk.relayToken(),
    relayConsumer: opts.relayConsumer ?? ((o) => new RelayConsumer(o)),
    presence: new PresenceReporter({
      token: () => desk.relayToken(),
      desktopId: desktopId(store),
      appVersion: opts.appVersion ?? 'unknown',
      os: osLabel(platform(), release()),
      alertsToday: () => store.alertsToday(now()),
      logger,
    }),
    logger,
    onStatus: () => pushStatus(),
    onBackfill: (p) => emit('backfill', p),
    safetyNet: opts.safetyNet,
    now,
  });

  // Desk mode: the watch list goes to the relay, which serves it as a webcal feed.
  const watchlist = new WatchlistSync({
    isDesk: () => !demo && desk.isDesk(),
    relayUrl: () => effective().relayUrl,
    relayToken: () => desk.relayToken(),
    watchedEventIds: () => effective().alertRules.watchedEventIds,
    logger,
  });
  emitter.on('status', (s: AppStatus) => watchlist.relayConnected(s.relay?.connected === true));

  const credentials = await createCredentials({
    keychain,
    settingsFile,
    tokens,
    updateSettings: (patch) => settings.update(patch),
    pushStatus: () => status.push(),
    // Say which keys were tested: in demo mode they are the simulator's, not the saved ones.
    testMessage: (scope) =>
      demo
        ? `Demo mode: the built-in simulator accepted its own demo keys for ${scope}. Saved keys are not tested or used in demo mode.`
        : desk.testMessage(scope),
  });
  const status = createStatusReporter({
    demo,
    sync,
    tokens,
    settingsFile,
    effective,
    credentials: credentials.cached,
    store,
    now,
    publish: (s) => emit('status', s),
  });
  const pushStatus = () => status.push();
  tokens.onStateChange?.(pushStatus);
  const settings = createSettingsFanout({
    settingsFile,
    effective,
    keysConfigured: async () => (await credentials.read()).configured,
    tokens,
    sync,
    alerts,
    watchlist,
    pushStatus,
    pushSettings: (s) => emit('settings', s),
  });
  const api: AppApi = createApiTable({
    dataDir: opts.dataDir,
    logFile,
    appVersion: opts.appVersion,
    now,
    logger,
    effective,
    store,
    sync,
    calendar,
    applier,
    credentials,
    settings,
    status,
    watchlist,
    notify: (n) => emit('notification', n),
    onAlertsRead: (ids) => emit('alertsRead', { ids }),
  });

  let receiver: WebhookReceiver | null = null;
  let stopped = false;
  const service: AppService = {
    api,
    demo,
    dataDir: opts.dataDir,
    simulatorUrl: simulator?.url,
    on<E extends keyof ServiceEvents>(
      event: E,
      listener: (payload: ServiceEvents[E]) => void,
    ): Unsubscribe {
      emitter.on(event, listener as (p: unknown) => void);
      return () => emitter.off(event, listener as (p: unknown) => void);
    },
    upcomingReleases(limit: number): EventDate[] {
      const from = new Date(now()).toISOString();
      const to = new Date(now() + 7 * 86_400_000).toISOString();
      return store
        .upcoming({ from, to, minVolatility: 'HIGH' })
        .filter((ed) => ed.actual === null)
        .slice(0, limit);
    },
    async start() {
      alerts.rescheduleReminders();
      newsWindowAlerts.start();
      watchlist.changed();
      await sync.start();
      if (simulator)
        receiver = await connectDemoWebhooks({ sync, applier, calendar, news, logger }).catch(
          (err: unknown) => {
            logger.warn({ err }, 'demo webhooks unavailable');
            return null;
          },
        );
      pushStatus();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      status.stop();
      alerts.stop();
      newsWindowAlerts.stop();
      watchlist.stop();
      pruning.stop();
      await sync.stop();
      await receiver?.close();
      await simulator?.close();
      store.close();
      logger.flush?.();
    },
  };
  return service;
}

/** When this store started watching the calendar (set once, on its first run). */
function coverageStart(
  store: Pick<Store, 'getSyncState' | 'setSyncState' | 'transaction'>,
  now: number,
): number {
  const stored = Number(store.getSyncState(COVERED_SINCE_KEY));
  if (Number.isFinite(stored) && stored > 0) return stored;
  store.transaction(() => store.setSyncState(COVERED_SINCE_KEY, String(now)));
  return now;
}
