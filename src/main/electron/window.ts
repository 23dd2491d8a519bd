/** The one app window: hardened, shown when ready, hidden (not closed) on close. */
import { BrowserWindow } from 'electron';
import { pathToFileURL } from 'node:url';
import { hardenContents, WEB_PREFERENCES } from './security.js';

export interface WindowOptions {
  preload: string;
  /** Dev server URL, or the built index.html path. */
  devServerUrl?: string;
  indexFile: string;
  icon?: string;
  /** Returns true when the app is really quitting (then close closes). */
  quitting: () => boolean;
}

export function appUrlOf(opts: Pick<WindowOptions, 'devServerUrl' | 'indexFile'>): string {
  return opts.devServerUrl ?? pathToFileURL(opts.indexFile).href;
}

export function createWindow(opts: WindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 560,
    show: false,
    title: 'Macrobell',
    backgroundColor: '#0e1218',
    ...(opts.icon ? { icon: opts.icon } : {}),
    webPreferences: { ...WEB_PREFERENCES, preload: opts.preload },
  });
  hardenContents(win.webContents, appUrlOf(opts));
  win.once('ready-to-show', () => win.show());
  // Closing the window keeps Macrobell in the tray; Quit really quits.
  win.on('close', (event) => {
    if (!opts.quitting()) {
      event.preventDefault();
      win.hide();
    }
  });
  if (opts.devServerUrl) void win.loadURL(opts.devServerUrl);
  else void win.loadFile(opts.indexFile);
  return win;
}
