/**
 * The Electron shell, as a function of the `electron` module's pieces so it can be tested
 * against a fake: single instance, service, window, tray, notifications, IPC, lifecycle.
 */
import { app, session } from 'electron';
import { join } from 'node:path';
import type { AlertTarget } from '../../shared/domain.js';
import { createAppService } from '../service.js';
import type { MacrobellService } from '../service-contract.js';
import { registerIpc } from './ipc.js';
import { nativeBindingPath } from './native-binding.js';
import { showNotification } from './notifications.js';
import { preloadFile, rendererFile } from './paths.js';
import { hardenContents, hardenSession } from './security.js';
import { AppTray } from './tray.js';
import { appUrlOf, createWindow } from './window.js';
import type { BrowserWindow } from 'electron';
import { ipcPushChannel } from '../../shared/channels.js';

export const APP_USER_MODEL_ID = 'app.macrobell.desktop';

export interface ShellDeps {
  createService?: typeof createAppService;
  devServerUrl?: string;
}

export async function runShell(deps: ShellDeps = {}): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);

  let win: BrowserWindow | null = null;
  let quitting = false;
  const appPath = app.getAppPath();
  const assetsDir = app.isPackaged
    ? join(process.resourcesPath, 'assets')
    : join(appPath, 'assets');
  const indexFile = rendererFile(appPath);
  const devServerUrl = deps.devServerUrl;
  const appUrl = appUrlOf({ devServerUrl, indexFile });

  const showWindow = (target?: AlertTarget | { type: 'settings' }) => {
    if (!win || win.isDestroyed()) {
      win = createWindow({
        preload: preloadFile(appPath),
        devServerUrl,
        indexFile,
        icon: join(assetsDir, 'icon.png'),
        quitting: () => quitting,
      });
    }
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
    if (target) win.webContents.send(ipcPushChannel('navigate'), target);
  };

  app.on('second-instance', () => showWindow());
  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('web-contents-created', (_e, contents) => hardenContents(contents, appUrl));

  await app.whenReady();
  hardenSession(session.defaultSession, Boolean(devServerUrl));

  const service: MacrobellService = await (deps.createService ?? createAppService)({
    dataDir: app.getPath('userData'),
    mode: 'auto',
    nativeBinding: nativeBindingPath({
      packaged: app.isPackaged,
      resourcesPath: process.resourcesPath,
      appPath,
    }),
  });
  const unregister = registerIpc(service, () => win, appUrl);
  service.on('notification', (n) =>
    showNotification(n, (target) => showWindow(target), join(assetsDir, 'icon.png')),
  );

  const tray = new AppTray(
    service,
    assetsDir,
    {
      open: () => showWindow(),
      settings: () => showWindow({ type: 'settings' }),
      openEvent: (ed) => showWindow({ type: 'eventDate', eventDateId: ed.id, eventId: ed.eventId }),
      pause: (until) => void service.api.pauseAlerts({ until }),
      toggleStartAtLogin: (on) => app.setLoginItemSettings({ openAtLogin: on }),
      quit: () => app.quit(),
    },
    () => app.getLoginItemSettings().openAtLogin,
  );

  // The tray app keeps running with no window open.
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => showWindow());
  app.on('will-quit', (event) => {
    if (!service) return;
    event.preventDefault();
    tray.destroy();
    unregister();
    void service.stop().finally(() => app.exit(0));
  });

  showWindow();
  await service.start();
}
