/**
 * The parts the shell builds around a running service: auto-update, native alerts with
 * their OS checks, the tray and its actions, and the orderly stop on quit.
 */
import { app } from 'electron';
import type { Logger } from '../../node/log/logger.js';
import { APP_USER_MODEL_ID, type OsNotificationFacts } from '../notify/os-checks.js';
import type { MacrobellService } from '../service-contract.js';
import { NativeAlerts } from './native-alerts.js';
import { defaultFactsEnv, gatherNotificationFacts } from './notification-facts.js';
import { AppTray } from './tray.js';
import type { UpdateController } from './update-controller.js';
import { createUpdater, pushNotice } from './updater.js';
import type { WindowHost } from './window.js';

/** How long Quit waits for the service to flush and close before exiting anyway. */
export const STOP_TIMEOUT_MS = 5_000;

export function startUpdates(
  service: MacrobellService,
  host: WindowHost,
  log: Logger,
  onNotice: Parameters<typeof createUpdater>[0]['onNotice'],
): UpdateController {
  const updates = createUpdater({
    service,
    window: () => host.current(),
    onNotice,
    log: (msg, fields) => (fields?.err ? log.warn(fields, msg) : log.info(fields ?? {}, msg)),
  });
  // A window (re)loaded after the update was found still shows "Restart to update".
  app.on('browser-window-created', (_e, win) =>
    win.webContents.on('did-finish-load', () => pushNotice(win, updates.current())),
  );
  return updates;
}

export function nativeAlerts(o: {
  host: WindowHost;
  icon: string;
  log: Logger;
  facts?: () => Promise<OsNotificationFacts>;
  confirmMs?: number;
}): NativeAlerts {
  const { host } = o;
  return new NativeAlerts({
    open: (target) => host.show(target),
    icon: o.icon,
    facts:
      o.facts ??
      (() =>
        gatherNotificationFacts(
          defaultFactsEnv(process.platform === 'win32' ? APP_USER_MODEL_ID : null),
        )),
    banner: (n) => host.showBanner(n),
    confirmMs: o.confirmMs,
    onError: (err) => o.log.warn({ err }, 'notification check failed'),
  });
}

export function createTray(o: {
  service: MacrobellService;
  assetsDir: string;
  host: WindowHost;
  updates: UpdateController | null;
  startAtLogin: () => boolean;
  applyStartAtLogin: (on: boolean) => void;
}): AppTray {
  const { service, host } = o;
  const tray: AppTray = new AppTray(
    service,
    o.assetsDir,
    {
      open: () => host.show(),
      settings: () => host.show({ type: 'settings' }),
      openEvent: (ed) => host.show({ type: 'eventDate', eventDateId: ed.id, eventId: ed.eventId }),
      pause: (until) =>
        void service.api.pauseAlerts({ until }).then(
          () => tray.reloadStatus(),
          () => tray.reloadStatus(),
        ),
      toggleStartAtLogin: (on) => {
        o.applyStartAtLogin(on);
        // Keep the saved setting in step so Settings shows the same as the tray.
        void service.api.updateSettings({ startAtLogin: on }).catch(() => undefined);
        tray.refresh();
      },
      quit: () => app.quit(),
      restartToUpdate: () => o.updates?.restartNow(),
    },
    o.startAtLogin,
  );
  return tray;
}

/** On quit: tray, updates and IPC go; the service flushes, but never hangs the quit. */
export function stopOnQuit(o: {
  service: MacrobellService;
  tray: AppTray;
  updates: UpdateController | null;
  unregister: () => void;
}): void {
  let stopping = false;
  app.on('will-quit', (event) => {
    if (stopping) return;
    stopping = true;
    event.preventDefault();
    o.tray.destroy();
    o.updates?.stop();
    o.unregister();
    const timeout = new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref());
    void Promise.race([o.service.stop().catch(() => undefined), timeout]).finally(() => {
      // A downloaded update is applied on the way out (it quits the app itself).
      if (!o.updates?.installOnQuit()) app.exit(0);
    });
  });
}
