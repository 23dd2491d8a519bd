/**
 * electron-updater on GitHub releases (the feed electron-builder writes into the package
 * as app-update.yml), driven by UpdateController. Off from source, in demo mode and in
 * the smoke test; the renderer gets an `update` push, the tray a "Restart to update" item.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { app, type BrowserWindow } from 'electron';
import electronUpdater from 'electron-updater';
import { ipcPushChannel, type UpdateNotice } from '../../shared/ipc.js';
import type { MacrobellService } from '../service-contract.js';
import { UpdateController, type UpdateControllerDeps } from './update-controller.js';

/**
 * Whether electron-updater checks a download's signature on this build: on Windows it
 * checks the publisher app-update.yml names (written only for signed builds); Squirrel.Mac
 * refuses unsigned apps; AppImage and .deb updates have no signature check at all.
 */
export function updateSignatureChecked(
  platform: NodeJS.Platform,
  appUpdateYml: string | null,
): boolean {
  if (platform === 'darwin') return true;
  if (platform === 'win32') return appUpdateYml !== null && /^publisherName:/m.test(appUpdateYml);
  return false;
}

/** The packaged app-update.yml electron-builder writes (null when there is none). */
function readAppUpdateYml(): string | null {
  try {
    return readFileSync(join(process.resourcesPath, 'app-update.yml'), 'utf8');
  } catch {
    return null;
  }
}

/** Whether the app may update itself: only a packaged app on real data, unless disabled. */
export function updatesEnabled(opts: {
  packaged: boolean;
  demo: boolean;
  env: NodeJS.ProcessEnv;
  /** Downloads are signature-checked (updateSignatureChecked). */
  signed: boolean;
}): ReturnType<UpdateControllerDeps['enabled']> {
  if (!opts.packaged) return { on: false, reason: 'running from source' };
  if (opts.demo) return { on: false, reason: 'demo mode' };
  if (opts.env.MACROBELL_DISABLE_UPDATES === '1')
    return { on: false, reason: 'MACROBELL_DISABLE_UPDATES=1' };
  // Only a checksum from the same feed would stand between a hijacked feed and the user.
  if (!opts.signed && opts.env.MACROBELL_ALLOW_UNSIGNED_UPDATES !== '1')
    return {
      on: false,
      reason:
        'unsigned build: updates would not be signature-checked (MACROBELL_ALLOW_UNSIGNED_UPDATES=1 allows them)',
    };
  return { on: true };
}

/** The first watched release due within `ms` from now, as "US Nonfarm Payrolls". */
export async function watchedReleaseDueWithin(
  service: Pick<MacrobellService, 'api'>,
  ms: number,
  now = Date.now(),
): Promise<string | null> {
  const { watchedEventIds } = await service.api.getAlertRules();
  if (watchedEventIds.length === 0) return null;
  const due = await service.api.listEventDates({
    from: new Date(now).toISOString(),
    to: new Date(now + ms).toISOString(),
  });
  const hit = due.find((ed) => watchedEventIds.includes(ed.eventId));
  return hit ? `${hit.countryCode} ${hit.name}` : null;
}

/** Send the notice to the window now, and again whenever its page (re)loads. */
export function pushNotice(win: BrowserWindow | null, notice: UpdateNotice): void {
  if (win && !win.isDestroyed()) win.webContents.send(ipcPushChannel('update'), notice);
}

export function createUpdater(opts: {
  service: MacrobellService;
  window: () => BrowserWindow | null;
  onNotice: (n: UpdateNotice) => void;
  log: UpdateControllerDeps['log'];
}): UpdateController {
  return new UpdateController({
    updater: () => {
      const { autoUpdater } = electronUpdater; // picks NSIS, DMG/zip, AppImage or deb
      autoUpdater.logger = null; // failures reach our log through the controller
      return autoUpdater;
    },
    enabled: () =>
      updatesEnabled({
        packaged: app.isPackaged,
        demo: opts.service.demo,
        env: process.env,
        signed: app.isPackaged && updateSignatureChecked(process.platform, readAppUpdateYml()),
      }),
    watchedReleaseDueWithin: (ms) => watchedReleaseDueWithin(opts.service, ms),
    windowInUse: () => {
      const win = opts.window();
      return Boolean(win && !win.isDestroyed() && win.isVisible() && win.isFocused());
    },
    onNotice: (n) => {
      pushNotice(opts.window(), n);
      opts.onNotice(n);
    },
    log: opts.log,
  });
}
