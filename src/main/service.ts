/**
 * The composition root of the main process: wires secrets, auth, API clients, store,
 * sync and alerts, and exposes the app's API (src/shared/ipc.ts) to the hosts — the
 * Electron glue and the web-mode host. Plain Node: no Electron here.
 */
import { EventEmitter } from 'node:events';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type {
  AlertRules,
  AppStatus,
  CredentialsInfo,
  EventDate,
  Scope,
  Settings,
  TokenState,
} from '../shared/domain.js';
import { maskKey } from '../shared/format.js';
import type { AppApi, SettingsPatch } from '../shared/ipc.js';
import { AlertsEngine, type AlertsEngineOptions } from './alerts/index.js';
import { createApiClients } from './api/index.js';
import { TokenManager } from './auth/index.js';
import { createDeskConnection } from './auth/desk-token-source.js';
import { WatchlistSync } from './desk/watchlist-sync.js';
import {
  assertRelayUrlChangeAllowed,
  assertServiceUrlChangeAllowed,
} from './auth/url-change-guard.js';
import { clientCredentialsSource } from '../node/oauth/client-credentials.js';
import { startDemoMarket, type DemoMarket } from './demo.js';
import { SettingsFile, applyEnvOverrides } from './config/settings-file.js';
import { recentErrors, runtimeInfo } from './diagnostics.js';
import { createLogger, scrubSecrets } from './log/logger.js';
import { KeytarSecretStore, MemorySecretStore, type SecretStore } from './secrets/index.js';
import type { MacrobellService, ServiceEvents, Unsubscribe } from './service-contract.js';
import { logSlowReads } from './store/slow-log.js';
import { openStore } from './store/index.js';
import { PruneScheduler } from './store/prune-schedule.js';
import { listPostsTriaged, markAllPostsRead } from './store/news-triage.js';
import { ChangeApplier, InvalidNotificationError } from './sync/applier.js';
import { SyncEngine, type RelayConsumerFactory } from './sync/engine.js';
import type { SafetyNetTuning } from './sync/safety-net.js';
import { RelayConsumer } from './sync/relay-consumer.js';
import { isRetryable } from './sync/relay-apply.js';
import { ServiceHealth, observeApis } from './sync/service-health.js';
import { startWebhookReceiver, type WebhookReceiver } from './sync/webhook-receiver.js';

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

const SCOPES: Scope[] = ['calendar', 'news'];

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
    urls: () => effective().serviceUrls,
    language: () => effective().language,
    tokens,
    logger,
  });
  const { calendar, news } = observeApis(health, clients.calendar, clients.news);

  const alerts = new AlertsEngine({
    ...opts.alertDelivery,
    store,
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

  const credentialsInfo = async (): Promise<CredentialsInfo> => {
    const available = await keychain.available();
    const [pub, priv, relayToken] = available.ok
      ? await Promise.all([
          keychain.get('publicKey'),
          keychain.get('privateKey'),
          keychain.get('relayToken'),
        ])
      : [null, null, null];
    return {
      configured: Boolean(pub && priv),
      maskedPublicKey: pub ? maskKey(pub) : null,
      relayTokenConfigured: Boolean(relayToken),
      keychainAvailable: available.ok,
      keychainError: available.error,
    };
  };
  let cachedCredentials = await credentialsInfo();

  const tokenStates = (): Record<Scope, TokenState> =>
    Object.fromEntries(SCOPES.map((s) => [s, tokens.state(s)])) as Record<Scope, TokenState>;

  const status = (): AppStatus => {
    const s = sync.getStatus();
    const settingsProblem = settingsFile.problem
      ? { source: 'settings', message: settingsFile.problem, at: now() }
      : null;
    return {
      demo,
      connection: s.connection,
      mode: s.mode,
      online: s.online,
      lastSyncAt: s.lastSyncAt,
      badNotifications: s.badNotifications,
      tokens: tokenStates(),
      credentials: cachedCredentials,
      relay: s.relay
        ? {
            url: s.relay.url,
            connected: s.relay.connected,
            node: s.relay.node,
            lastEventId: s.relay.lastEventId,
            lastEventAt: s.relay.lastEventAt,
            lagMs: s.relay.lagMs,
          }
        : null,
      backfill: s.backfill,
      lastError: s.lastError ?? settingsProblem,
      alertsPausedUntil: effective().alertRules.pausedUntil,
      unreadAlerts: store.countUnreadAlerts(),
    };
  };
  let statusQueued = false;
  let stopped = false;
  function pushStatus(): void {
    // Coalesce bursts of status changes (backfill progress, relay events) into one push a tick.
    if (statusQueued) return;
    statusQueued = true;
    queueMicrotask(() => {
      statusQueued = false;
      // A change that lands as the core stops has no one left to tell (and no database).
      if (!stopped) emit('status', status());
    });
  }
  tokens.onStateChange?.(() => pushStatus());

  const updateSettings = async (patch: SettingsPatch): Promise<Settings> => {
    const before = settingsFile.get();
    await assertServiceUrlChangeAllowed(before.serviceUrls, patch.serviceUrls, async () =>
      Boolean((await credentialsInfo()).configured),
    );
    const next = settingsFile.update(patch);
    // Deep equality, not JSON text: the same settings in another key order are no change.
    const changed = <K extends keyof Settings>(k: K) => !isDeepStrictEqual(before[k], next[k]);
    if (changed('serviceUrls')) tokens.clear();
    if (changed('relayUrl') || changed('cultures') || changed('polling')) await sync.restart();
    if (changed('alertRules') || changed('relayUrl') || changed('connection')) watchlist.changed();
    if (changed('alertRules')) {
      alerts.rescheduleReminders();
      sync.replanBursts();
    }
    pushStatus();
    return effectiveView();
  };
  /** Settings as shown: demo overrides visible, nothing secret (there is none in settings). */
  const effectiveView = (): Settings => effective();
  const setRules = (rules: AlertRules) =>
    updateSettings({ alertRules: rules }).then((s) => s.alertRules);

  const knownSecrets = async (): Promise<string[]> => {
    const values = await Promise.all(
      (['publicKey', 'privateKey', 'relayToken'] as const).map((k) =>
        keychain.get(k).catch(() => null),
      ),
    );
    return values.filter((v): v is string => Boolean(v));
  };

  const guardRelayUrl = (url: string | null | undefined, tokenGiven: boolean) =>
    assertRelayUrlChangeAllowed(settingsFile.get().relayUrl, url, tokenGiven, async () =>
      Boolean(await keychain.get('relayToken').catch(() => null)),
    );

  const api: AppApi = {
    getStatus: async () => status(),
    getSettings: async () => effectiveView(),
    updateSettings: async (patch) => {
      await guardRelayUrl(patch?.relayUrl, false);
      return updateSettings(patch ?? {});
    },
    getCredentials: async () => (cachedCredentials = await credentialsInfo()),
    setCredentials: async ({ publicKey, privateKey, serviceUrls }) => {
      await keychain.set('publicKey', publicKey.trim());
      await keychain.set('privateKey', privateKey.trim());
      if (serviceUrls) settingsFile.update({ serviceUrls });
      tokens.clear();
      cachedCredentials = await credentialsInfo();
      pushStatus();
      return cachedCredentials;
    },
    clearCredentials: async () => {
      await keychain.delete('publicKey');
      await keychain.delete('privateKey');
      tokens.clear();
      cachedCredentials = await credentialsInfo();
      pushStatus();
      return cachedCredentials;
    },
    testConnection: async () => {
      const results = await Promise.all(
        SCOPES.map(async (s) => [s, await tokens.test(s)] as const),
      );
      const scopes = Object.fromEntries(results) as Record<Scope, { ok: boolean; message: string }>;
      pushStatus();
      return { ok: results.every(([, r]) => r.ok), scopes };
    },
    setRelay: async ({ url, token }) => {
      await guardRelayUrl(url, Boolean(token));
      if (token) await keychain.set('relayToken', token);
      if (url === null) await keychain.delete('relayToken');
      await updateSettings({ relayUrl: url });
      cachedCredentials = await credentialsInfo();
      pushStatus();
      return cachedCredentials;
    },
    listEventDates: async (q) => store.listEventDates(q),
    nextRelease: async (q) =>
      store.nextRelease({ after: new Date(now()).toISOString(), volatilities: q?.volatilities }),
    getEventDetail: async ({ eventId }) => {
      await refreshEventHistory(eventId);
      const from = new Date(now()).toISOString();
      const to = new Date(now() + 90 * 86_400_000).toISOString();
      return {
        event: store.getEvent(eventId),
        upcoming: store.eventOccurrences(eventId, { from, to }),
        history: store.eventHistory(eventId, { limit: 36 }),
        watched: effective().alertRules.watchedEventIds.includes(eventId),
      };
    },
    listCategories: async () => store.listCategories(),
    setWatched: async ({ eventId, watched }) => {
      const rules = effective().alertRules;
      const ids = new Set(rules.watchedEventIds);
      if (watched) ids.add(eventId);
      else ids.delete(eventId);
      return setRules({ ...rules, watchedEventIds: [...ids] });
    },
    listPosts: async (q) => {
      const r = listPostsTriaged(store.db, { ...q, culture: q.culture ?? effective().cultures[0] });
      return { ...r, page: q.page, pageSize: q.pageSize };
    },
    markAllPostsRead: async ({ culture }) => {
      markAllPostsRead(store.db, culture ?? effective().cultures[0]);
      return null;
    },
    getPost: async ({ id, culture }) => store.getPost(id, culture),
    markPostRead: async ({ id, culture }) => {
      store.markPostRead(id, culture);
      return null;
    },
    searchPosts: async (q) => store.searchPosts(q),
    listAlerts: async (q) => store.listAlerts(q),
    markAlertsRead: async ({ ids }) => {
      store.markAlertsRead(ids);
      pushStatus();
      return null;
    },
    getAlertRules: async () => effective().alertRules,
    setAlertRules: async (rules) => setRules(rules),
    pauseAlerts: async ({ until }) => setRules({ ...effective().alertRules, pausedUntil: until }),
    syncNow: async () => {
      await sync.backfill();
      return null;
    },
    getCacheInfo: async () => ({
      dataDir: opts.dataDir,
      databaseBytes: store.sizeBytes(),
      ...pick(store.counts()),
    }),
    clearCache: async () => {
      store.clearCache();
      void sync.backfill();
      return { dataDir: opts.dataDir, databaseBytes: store.sizeBytes(), ...pick(store.counts()) };
    },
    getDiagnostics: async () => {
      // The log this core really writes (the configured file), and the shell's beside it.
      const logDir = logFile ? dirname(logFile) : join(opts.dataDir, 'logs');
      const logTail =
        logFile && existsSync(logFile)
          ? readFileSync(logFile, 'utf8').split('\n').slice(-200).join('\n')
          : '';
      const report = {
        app: 'Macrobell',
        versions: runtimeInfo(opts.appVersion),
        lastErrors: recentErrors([...(logFile ? [logFile] : []), join(logDir, 'shell.log')]),
        status: status(),
        settings: { ...effective(), relayUrl: effective().relayUrl ? '[configured]' : null },
        cache: { databaseBytes: store.sizeBytes(), ...store.counts() },
      };
      return scrubSecrets(
        `${JSON.stringify(report, null, 2)}\n\n--- recent log ---\n${logTail}`,
        await knownSecrets(),
      );
    },
    openExternal: async () => null,
    getCalendarFeed: () => watchlist.feed(false),
    rotateCalendarFeed: () => watchlist.feed(true),
    installUpdate: async () => null, // the desktop shell handles it (src/main/electron/updater.ts)
  };

  /** The event detail's chart wants a year of history; the backfill only holds weeks. */
  async function refreshEventHistory(eventId: string): Promise<void> {
    try {
      const [event, history] = await Promise.all([
        store.getEvent(eventId) ? null : calendar.event(eventId),
        calendar.historical(eventId),
      ]);
      if (event) store.transaction(() => store.upsertEvent(event.value, event.raw));
      applier.applyEventDates(history, 'backfill');
    } catch (err) {
      logger.info({ eventId, err }, 'history from cache only');
    }
  }

  /** Demo mode: the simulator's webhooks come straight in, so demo data is live. */
  let receiver: WebhookReceiver | null = null;
  async function connectDemoWebhooks(): Promise<void> {
    receiver = await startWebhookReceiver({
      apply: async (payload) => {
        sync.noteWebhook(payload);
        try {
          await applier.applyNotification(payload, 'webhook');
        } catch (err) {
          // A body that can never apply is answered 204 (a retry would not help) and counted.
          if (isRetryable(err) || !(err instanceof Error)) throw err;
          if (!(err instanceof InvalidNotificationError)) logger.warn({ err }, 'webhook skipped');
          sync.countBad();
        }
      },
      logger,
    });
    await Promise.all([
      calendar.webhooks.register(receiver.url),
      news.webhooks.register(receiver.url),
    ]);
  }

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
      watchlist.changed();
      await sync.start();
      if (simulator)
        await connectDemoWebhooks().catch((err: unknown) =>
          logger.warn({ err }, 'demo webhooks unavailable'),
        );
      pushStatus();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      alerts.stop();
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

function pick(c: { eventDates: number; posts: number }): { eventDates: number; posts: number } {
  return { eventDates: c.eventDates, posts: c.posts };
}
