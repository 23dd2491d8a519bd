/**
 * The shell's window, set up before the app is ready (as Electron requires for the app://
 * scheme): where the app's files and icons are, the window host, and the app events that
 * concern windows — a tray app keeps running with no window open, on every platform.
 */
import { app } from 'electron';
import { join } from 'node:path';
import { preloadFile, rendererFile } from './paths.js';
import { hardenContents, registerAppScheme } from './security.js';
import { appUrlOf, WindowHost } from './window.js';

export interface ShellWindow {
  host: WindowHost;
  assetsDir: string;
  icon: string;
  /** The built renderer's index.html (served over app:// unless a dev server is used). */
  indexFile: string;
  devServerUrl: string | undefined;
  appUrl: string;
  /** No tray host (Linux without one): the window stays in the taskbar. */
  setNoTrayHost(absent: boolean): void;
}

export function prepareWindow(devServerUrlOption: string | undefined): ShellWindow {
  let quitting = false;
  let noTrayHost = false;
  const appPath = app.getAppPath();
  const assetsDir = app.isPackaged
    ? join(process.resourcesPath, 'assets')
    : join(appPath, 'assets');
  const icon = join(assetsDir, 'icon.png');
  const devServerUrl = devServerUrlOption || undefined;
  const appUrl = appUrlOf({ devServerUrl });
  registerAppScheme(); // before ready, as Electron requires
  const host = new WindowHost({
    preload: preloadFile(appPath),
    devServerUrl,
    icon,
    quitting: () => quitting,
    keepInTaskbar: () => noTrayHost,
  });
  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('web-contents-created', (_e, contents) => hardenContents(contents, appUrl));
  // The tray app keeps running with no window open (on every platform).
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => host.show());
  return {
    host,
    assetsDir,
    icon,
    indexFile: rendererFile(appPath),
    devServerUrl,
    appUrl,
    setNoTrayHost: (absent) => (noTrayHost = absent),
  };
}
