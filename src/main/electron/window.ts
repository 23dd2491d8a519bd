/** The one app window: hardened, shown when ready, hidden (not closed) on close. */
import { BrowserWindow } from 'electron';
import type { NativeNotification } from '../../shared/domain.js';
import { ipcPushChannel, type PushPayloads } from '../../shared/ipc.js';
import { APP_URL } from './app-protocol.js';
import { hardenContents, WEB_PREFERENCES } from './security.js';

export interface WindowOptions {
  preload: string;
  /** Dev server URL; without it the built renderer is loaded from app://. */
  devServerUrl?: string;
  icon?: string;
  /** Returns true when the app is really quitting (then close closes). */
  quitting: () => boolean;
  /** No tray to come back from (Linux without a StatusNotifier host): close minimises. */
  keepInTaskbar?: () => boolean;
}

export type NavigateTarget = PushPayloads['navigate'];

export function appUrlOf(opts: Pick<WindowOptions, 'devServerUrl'>): string {
  return opts.devServerUrl ?? APP_URL;
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
      if (opts.keepInTaskbar?.()) win.minimize();
      else win.hide();
    }
  });
  void win.loadURL(appUrlOf(opts));
  return win;
}

/** Owns the window: creates it on demand, brings it forward, routes navigate pushes. */
export class WindowHost {
  private win: BrowserWindow | null = null;

  constructor(private readonly opts: WindowOptions) {}

  /** The live window, if any (IPC checks senders against it; pushes go to it). */
  current(): BrowserWindow | null {
    return this.win && !this.win.isDestroyed() ? this.win : null;
  }

  /** Show the window (creating it if needed), optionally opening a screen in it. */
  show(target?: NavigateTarget): BrowserWindow {
    let win = this.current();
    if (!win) {
      // A new window shows itself on ready-to-show, so it never flashes blank.
      win = this.win = createWindow(this.opts);
    } else {
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    }
    if (target) this.navigate(win, target);
    return win;
  }

  /**
   * The OS did not show `n`: the window comes up on top of everything (without taking the
   * keyboard from the trading platform) and shows it as a banner with its sound.
   */
  showBanner(n: NativeNotification): void {
    let win = this.current();
    if (!win) win = this.win = createWindow(this.opts);
    if (win.isMinimized()) win.restore();
    win.setAlwaysOnTop(true, 'screen-saver');
    win.showInactive();
    this.push(win, 'banner', n);
  }

  /** The taskbar (the dock on macOS) asks for the trader's attention until the window is used. */
  attention(): void {
    const win = this.current();
    if (win && !win.isFocused()) win.flashFrame(true);
  }

  /** The banner was dismissed: an ordinary window again. */
  dropBanner(): void {
    this.current()?.setAlwaysOnTop(false);
  }

  private navigate(win: BrowserWindow, target: NavigateTarget): void {
    this.push(win, 'navigate', target);
  }

  private push<E extends 'navigate' | 'banner'>(
    win: BrowserWindow,
    event: E,
    payload: PushPayloads[E],
  ): void {
    const send = () => {
      if (!win.isDestroyed()) win.webContents.send(ipcPushChannel(event), payload);
    };
    // A page still loading has no listener yet: deliver once it has loaded.
    if (win.webContents.isLoading()) win.webContents.once('did-finish-load', send);
    else send();
  }
}
