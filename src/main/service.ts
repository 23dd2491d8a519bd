/**
 * The composition root of the main process: wires secrets, auth, API clients, store,
 * sync and alerts, and exposes the app's API (src/shared/ipc.ts) to the hosts — the
 * Electron glue and the web-mode host. Plain Node: no Electron here. It only wires, in
 * order, the parts in ./service/: the mode (demo, keys or desk), the APIs, the alerts,
 * sync, the settings fan-out, the credentials, the status, the API table and the
 * lifecycle. Parts own their events (typed `Event<T>`, src/shared/event.ts); service/publish.ts
 * connects them, once, to each other and to the hosts' pushes (service/bus.ts).
 */
import { SettingsFile, applyEnvOverrides } from './config/settings-file.js';
import { KeytarSecretStore, type SecretStore } from './secrets/index.js';
import type { MacrobellService } from './service-contract.js';
import type { RelayConsumerFactory } from './sync/live-source.js';
import type { SafetyNetTuning } from './sync/safety-net.js';
import { createAlerting, type AlertDelivery } from './service/alerting.js';
import { openCoreStore, openDataDir, type CoreBasics } from './service/basics.js';
import { createApiTable } from './service/api-table.js';
import { connectApis } from './service/apis.js';
import { CorePushes } from './service/bus.js';
import { DemoWebhookLink } from './service/demo-webhooks.js';
import { seedFromDemo } from './sync/demo-seed.js';
import { assembleService } from './service/lifecycle.js';
import { chooseMode, effectiveSettings, startDemo } from './service/mode.js';
import { createControls } from './service/controls.js';
import { createSyncCore } from './service/sync-core.js';
import { publishCore } from './service/publish.js';
import { rendererErrorLog } from './service/renderer-errors.js';

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
  alertDelivery?: AlertDelivery;
  /** The safety net's periods (tests and benchmarks; users keep the defaults). */
  safetyNet?: Partial<SafetyNetTuning>;
  /** The monotonic clock the wake-from-sleep check compares with the wall clock (tests). */
  monotonicNow?: () => number;
}

export interface AppService extends MacrobellService {
  /** The embedded simulator's base URL in demo mode (tests drive its control API). */
  readonly simulatorUrl: string | undefined;
}

export async function createAppService(opts: AppServiceOptions): Promise<AppService> {
  const { dataDir } = opts;
  const env = opts.env ?? process.env;
  const { logFile, logger } = openDataDir(opts);
  const settingsFile = SettingsFile.inDir(dataDir);
  // Fail early, with the variable's name, on a bad MACROBELL_* override.
  applyEnvOverrides(settingsFile.get(), env);
  const keychain = opts.secretStore ?? new KeytarSecretStore();
  const mode = opts.mode ?? 'auto';
  const { demo, desk } = await chooseMode({ mode, keychain, settingsFile, env });
  const demoSetup = demo ? await startDemo(opts.demo, logger) : undefined;
  const simulator = demoSetup?.simulator;
  const effective = effectiveSettings({ settingsFile, simulator, desk, env });
  const { store, pruning } = openCoreStore({ ...opts, demo, logger });
  const basics: CoreBasics = {
    store,
    now: opts.now ?? Date.now,
    effective,
    bus: new CorePushes((err) => logger.warn({ err }, 'a push listener failed')),
    logger,
  };
  const { bus } = basics;

  const credentialSource = demoSetup?.secrets ?? keychain;
  const apis = connectApis(basics, { demo, desk, credentials: credentialSource });
  const { tokens, calendar } = apis;
  const { alerts, newsWindowAlerts, acks } = createAlerting(basics, opts.alertDelivery);
  const demoWebhooks = new DemoWebhookLink();
  const { applier, sync, watchlist } = createSyncCore({
    ...basics,
    ...apis,
    alerts,
    desk,
    demo,
    directWebhooks: () => demoWebhooks.connected,
    appVersion: opts.appVersion,
    relayConsumer: opts.relayConsumer,
    safetyNet: opts.safetyNet,
    monotonicNow: opts.monotonicNow,
  });
  const controlled = { demo, desk, settingsFile, keychain, tokens, sync, alerts, watchlist };
  const { settings, credentials, status } = await createControls(basics, controlled);
  const api = createApiTable({
    ...basics,
    dataDir,
    logFile,
    appVersion: opts.appVersion,
    calendar,
    sync,
    applier,
    credentials,
    settings,
    status,
    watchlist,
    notify: (n) => bus.pushes.notification.fire(acks.sent(n)),
    acknowledge: (ack) => {
      if (acks.acknowledge(ack)) bus.statusChanged(); // the latency panel follows
    },
    logRendererError: rendererErrorLog(logger, basics.now),
    onAlertsRead: (ids) => bus.pushes.alertsRead.fire({ ids }),
  });
  const parts = { alerts, newsWindowAlerts, watchlist, pruning, sync, applier, status };
  const subscriptions = publishCore({ bus, tokens, acks, ...parts });
  return assembleService({
    ...basics,
    ...apis,
    ...parts,
    api,
    demo,
    dataDir,
    simulator,
    demoWebhooks,
    subscriptions,
    seed: () => {
      if (simulator)
        seedFromDemo({ store, applier, simulator, settings: effective, now: basics.now, logger });
    },
  });
}
