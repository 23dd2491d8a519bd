/**
 * The Electron shell, wiring the small modules around the core service: single instance,
 * service, window, tray, notifications, IPC, lifecycle. Tested against a fake `electron`.
 */
import { app, session } from 'electron';
import { dirname, join } from 'node:path';
import type { MacrobellService } from '../service-contract.js';
import { createLogger } from '../../node/log/logger.js';
import { APP_USER_MODEL_ID, type OsNotificationFacts } from '../notify/os-checks.js';
import { registerIpc } from './ipc.js';
import { startCrashReporter } from './crash.js';
import { LinkQueue } from './link-queue.js';
import {
  defaultLoginItemEnv,
  getStartAtLogin,
  setStartAtLogin,
  startedAtLogin,
  type LoginItemEnv,
} from './login-item.js';
import { checkTrayHost, registerDeepLinks } from './os-integration.js';
import { nativeBindingPath } from './native-binding.js';
import { hardenSession, serveAppProtocol } from './security.js';
import { loadService, type CreateService } from './service-loader.js';
import { createTray, nativeAlerts, startUpdates, stopOnQuit } from './shell-parts.js';
import { startNativeFallback } from './native-fallback.js';
import { prepareWindow } from './shell-window.js';
import { acquireSingleInstance } from './single-instance.js';
import type { AppTray } from './tray.js';
import type { UpdateController } from './update-controller.js';
import type { WindowHost } from './window.js';

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
  const argv = deps.argv ?? process.argv;
  const links = new LinkQueue();
  if (!acquireSingleInstance(links.onSecondInstance)) return null;
  startCrashReporter(); // as early as possible, to catch crashes during start-up
  // Notifications group under the app (the NSIS shortcut carries the same id: appId).
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  registerDeepLinks((link) => links.open(link), app.isPackaged && !deps.smoke);
  const win = prepareWindow(deps.devServerUrl);
  const { host } = win;

  await app.whenReady();
  hardenSession(session.defaultSession, Boolean(win.devServerUrl));
  if (!win.devServerUrl) serveAppProtocol(session.defaultSession, dirname(win.indexFile));
  const nativeBinding = nativeBindingPath({
    packaged: app.isPackaged,
    resourcesPath: process.resourcesPath,
    appPath: app.getAppPath(),
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
  const updates = deps.smoke ? null : startUpdates(service, host, log, (n) => tray?.setUpdate(n));
  const native = nativeAlerts({
    host,
    icon: win.icon,
    log,
    facts: deps.notificationFacts,
    confirmMs: deps.notificationConfirmMs,
  });
  const unregister = registerIpc(service, () => host.current(), win.appUrl, {
    onSettingsSaved: (s) => applyStartAtLogin(s.startAtLogin),
    onInstallUpdate: () => updates?.restartNow() ?? false,
    onTestAlert: () => native.test(() => service.api.sendTestAlert()),
    onBannerDismissed: () => host.dropBanner(),
  });
  // The host boundary: each notification the core shows, natively (the window's toast
  // comes through registerIpc's pushes). The handle ends with the app, at quit.
  const offNotifications = service.on('notification', (n) => void native.deliver(n));
  // No toast or sound acknowledged in time: the OS's notification with sound, the taskbar.
  const offFallback = startNativeFallback({ service, host, icon: win.icon });
  // Known suppression (Focus, no daemon, no shortcut) puts up the banner from the first alert.
  if (!deps.smoke) void native.refreshChecks();
  tray = createTray({
    service,
    assetsDir: win.assetsDir,
    host,
    updates,
    startAtLogin: () => getStartAtLogin(loginEnv),
    applyStartAtLogin,
  });
  stopOnQuit({
    service,
    tray,
    updates,
    unregister: () => {
      offNotifications();
      offFallback();
      unregister();
    },
  });

  // Started at login: the tray only. The smoke test always shows its window.
  if (deps.smoke || !startedAtLogin(argv)) host.show();
  links.ready(host, argv);
  if (!deps.smoke)
    void checkTrayHost(app.getPath('userData'), deps.trayHost).then((absent) => {
      win.setNoTrayHost(absent);
      if (absent) host.show();
    });
  await service.start();
  updates?.start();
  return { service, window: host, tray, nativeBinding, updates };
}
