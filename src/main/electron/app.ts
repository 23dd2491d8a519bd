/**
 * The Electron shell, wiring the small modules around the core service: single instance,
 * service, window, tray, notifications, IPC, lifecycle. Tested against a fake `electron`.
 */
import { app, session } from 'electron';
import { dirname, join } from 'node:path';
import type { MacrobellService } from '../service-contract.js';
import { registerIpc } from './ipc.js';
import { startCrashReporter } from './crash.js';
import { deepLinkInArgv, parseDeepLink } from './deep-link.js';
import {
  defaultLoginItemEnv,
  getStartAtLogin,
  setStartAtLogin,
  startedAtLogin,
  type LoginItemEnv,
} from './login-item.js';
import { checkTrayHost, registerDeepLinks } from './os-integration.js';
import { nativeBindingPath } from './native-binding.js';
import { NativeAlerts } from './native-alerts.js';
import { defaultFactsEnv, gatherNotificationFacts } from './notification-facts.js';
import { showNotification } from './notifications.js';
import { APP_USER_MODEL_ID, type OsNotificationFacts } from '../notify/os-checks.js';
import { preloadFile, rendererFile } from './paths.js';
import { hardenContents, hardenSession, registerAppScheme, serveAppProtocol } from './security.js';
import { loadService, type CreateService } from './service-loader.js';
import { acquireSingleInstance } from './single-instance.js';
import { AppTray } from './tray.js';
import type { UpdateController } from './update-controller.js';
import { createUpdater, pushNotice } from './updater.js';
import { appUrlOf, WindowHost } from './window.js';
import { createLogger } from '../../node/log/logger.js';

/** How long Quit waits for the service to flush and close before exiting anyway. */
export const STOP_TIMEOUT_MS = 5_000;

export interface ShellDeps {
  createService?: CreateService;
  devServerUrl?: string;
  /** Where "start at login" is recorded (tests point it at a temp folder). */
  loginItemEnv?: LoginItemEnv;
  /** The packaged-app smoke test: demo data, nothing changed in the OS. */
  smoke?: boolean;
  /** The command line (a macrobell:// link, --hidden at login). */
  argv?: readonly string[];
  /** Linux tray host check (tests answer it). */
  trayHost?: Parameters<typeof checkTrayHost>[1];
  /** What the notification checks read of the OS (tests answer it). */
  notificationFacts?: () => Promise<OsNotificationFacts>;
  /** How long a notification may go unanswered before the OS counts as having taken it. */
  notificationConfirmMs?: number;
}

export interface Shell {
  service: MacrobellService;
  window: WindowHost;
  tray: AppTray;
  /** The Electron build of better-sqlite3 the service opened (undefined: Node's). */
  nativeBinding: string | undefined;
  /** Auto-update (null in the smoke test). */
  updates: UpdateController | null;
}

/** Starts the app; resolves with its parts (or null when another instance runs). */
export async function runShell(deps: ShellDeps = {}): Promise<Shell | null> {
  let windowHost: WindowHost | null = null;
  const argv = deps.argv ?? process.argv;
  // Links arriving before the window can open wait here (macOS sends them at launch).
  let pendingLinks: string[] | null = [];
  const openLink = (link: string) => {
    if (!windowHost || pendingLinks) return void pendingLinks?.push(link);
    const target = parseDeepLink(link); // an invalid link just brings the window forward
    windowHost.show(target && target.type !== 'open' ? target : undefined);
  };
  // A second launch (with or without a link) may come while this one is still starting.
  const onSecondInstance = (args: string[]) => openLink(deepLinkInArgv(args) ?? 'macrobell://open');
  if (!acquireSingleInstance(onSecondInstance)) return null;
  startCrashReporter(); // as early as possible, to catch crashes during start-up
  // Notifications group under the app (the NSIS shortcut carries the same id: appId).
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  registerDeepLinks(openLink, app.isPackaged && !deps.smoke);

  let quitting = false;
  let noTrayHost = false;
  const appPath = app.getAppPath();
  const assetsDir = app.isPackaged
    ? join(process.resourcesPath, 'assets')
    : join(appPath, 'assets');
  const icon = join(assetsDir, 'icon.png');
  const indexFile = rendererFile(appPath);
  const devServerUrl = deps.devServerUrl || undefined;
  const appUrl = appUrlOf({ devServerUrl });
  registerAppScheme(); // before ready, as Electron requires
  const host = (windowHost = new WindowHost({
    preload: preloadFile(appPath),
    devServerUrl,
    icon,
    quitting: () => quitting,
    keepInTaskbar: () => noTrayHost,
  }));

  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('web-contents-created', (_e, contents) => hardenContents(contents, appUrl));
  // The tray app keeps running with no window open (on every platform).
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => host.show());

  await app.whenReady();
  hardenSession(session.defaultSession, Boolean(devServerUrl));
  if (!devServerUrl) serveAppProtocol(session.defaultSession, dirname(indexFile));

  const nativeBinding = nativeBindingPath({
    packaged: app.isPackaged,
    resourcesPath: process.resourcesPath,
    appPath,
  });
  const service = await (deps.createService ?? (await loadService()))({
    dataDir: app.getPath('userData'),
    mode: deps.smoke ? 'demo' : 'auto',
    nativeBinding,
    appVersion: app.getVersion(),
  });

  const loginEnv = deps.loginItemEnv ?? defaultLoginItemEnv();
  const applyStartAtLogin = (on: boolean) => {
    if (getStartAtLogin(loginEnv) !== on) setStartAtLogin(on, loginEnv);
  };
  const log = createLogger({ file: join(app.getPath('userData'), 'logs', 'shell.log') });
  let tray: AppTray | null = null;
  // From source, in demo mode and in the smoke test the controller never checks.
  const updates = deps.smoke
    ? null
    : createUpdater({
        service,
        window: () => host.current(),
        onNotice: (n) => tray?.setUpdate(n),
        log: (msg, fields) => (fields?.err ? log.warn(fields, msg) : log.info(fields ?? {}, msg)),
      });
  // A window (re)loaded after the update was found still shows "Restart to update".
  app.on('browser-window-created', (_e, win) =>
    win.webContents.on('did-finish-load', () => updates && pushNotice(win, updates.current())),
  );
  const native = new NativeAlerts({
    show: (n, onResult) => showNotification(n, (target) => host.show(target), icon, onResult),
    facts:
      deps.notificationFacts ??
      (() =>
        gatherNotificationFacts(
          defaultFactsEnv(process.platform === 'win32' ? APP_USER_MODEL_ID : null),
        )),
    banner: (n) => host.showBanner(n),
    confirmMs: deps.notificationConfirmMs,
    onError: (err) => log.warn({ err }, 'notification check failed'),
  });
  const unregister = registerIpc(service, () => host.current(), appUrl, {
    onSettingsSaved: (s) => applyStartAtLogin(s.startAtLogin),
    onInstallUpdate: () => updates?.restartNow() ?? false,
    onTestAlert: () => native.test(() => service.api.sendTestAlert()),
    onBannerDismissed: () => host.dropBanner(),
  });
  service.on('notification', (n) => void native.deliver(n));
  // Known suppression (Focus, no daemon, no shortcut) puts up the banner from the first alert.
  if (!deps.smoke) void native.refreshChecks();

  tray = new AppTray(
    service,
    assetsDir,
    {
      open: () => host.show(),
      settings: () => host.show({ type: 'settings' }),
      openEvent: (ed) => host.show({ type: 'eventDate', eventDateId: ed.id, eventId: ed.eventId }),
      pause: (until) =>
        void service.api.pauseAlerts({ until }).then(
          () => tray?.reloadStatus(),
          () => tray?.reloadStatus(),
        ),
      toggleStartAtLogin: (on) => {
        applyStartAtLogin(on);
        // Keep the saved setting in step so Settings shows the same as the tray.
        void service.api.updateSettings({ startAtLogin: on }).catch(() => undefined);
        tray?.refresh();
      },
      quit: () => app.quit(),
      restartToUpdate: () => updates?.restartNow(),
    },
    () => getStartAtLogin(loginEnv),
  );

  let stopping = false;
  app.on('will-quit', (event) => {
    if (stopping) return;
    stopping = true;
    event.preventDefault();
    tray?.destroy();
    updates?.stop();
    unregister();
    // Flush and close the database, but never hang the quit on it.
    const timeout = new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref());
    void Promise.race([service.stop().catch(() => undefined), timeout]).finally(() => {
      // A downloaded update is applied on the way out (it quits the app itself).
      if (!updates?.installOnQuit()) app.exit(0);
    });
  });

  // Started at login: the tray only. The smoke test always shows its window.
  if (deps.smoke || !startedAtLogin(argv)) host.show();
  const queued = [...(pendingLinks ?? []), deepLinkInArgv(argv)].filter((l) => l !== null);
  pendingLinks = null;
  queued.forEach(openLink);
  if (!deps.smoke)
    void checkTrayHost(app.getPath('userData'), deps.trayHost).then((absent) => {
      noTrayHost = absent;
      if (absent) host.show();
    });
  await service.start();
  updates?.start();
  return { service, window: host, tray, nativeBinding, updates };
}
