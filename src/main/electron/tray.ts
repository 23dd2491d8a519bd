/** The tray icon: state icon, tooltip and a menu refreshed every 30 s and on changes. */
import { Menu, Tray, nativeImage } from 'electron';
import type { AppStatus } from '../../shared/domain.js';
import type { UpdateNotice } from '../../shared/ipc.js';
import type { MacrobellService, Unsubscribe } from '../service-contract.js';
import { NewsWindowCountdown, type NewsWindowClock } from './news-window-tray.js';
import { trayIconFile } from './paths.js';
import {
  buildTrayMenu,
  tooltip,
  trayState,
  type TrayActions,
  type TrayState,
} from './tray-menu.js';

export const TRAY_REFRESH_MS = 30_000;

export class AppTray {
  private readonly tray: Tray;
  private status: AppStatus | null = null;
  private state: TrayState | null = null;
  private update: UpdateNotice = { phase: 'idle' };
  private readonly timer: NodeJS.Timeout;
  private timeZone = 'system';
  private readonly offs: Unsubscribe[];
  private readonly newsWindow: NewsWindowCountdown;

  constructor(
    private readonly service: Pick<MacrobellService, 'on' | 'upcomingReleases' | 'api'>,
    private readonly assetsDir: string,
    private readonly actions: TrayActions,
    private readonly startAtLogin: () => boolean,
    private readonly platform: NodeJS.Platform = process.platform,
    newsClock?: NewsWindowClock,
  ) {
    this.tray = new Tray(this.icon('normal'));
    this.newsWindow = new NewsWindowCountdown(
      service,
      (text) => this.showNewsWindow(text),
      newsClock,
    );
    // Windows and macOS: a left click opens the window (Linux indicators only show the menu).
    this.tray.on('click', () => actions.open());
    this.offs = [
      service.on('status', (s) => {
        this.setStatus(s);
        void this.loadTimeZone(); // a settings change pushes a status
        void this.newsWindow.reload();
      }),
      service.on('changes', () => {
        this.refresh();
        void this.newsWindow.reload();
      }),
      // A new alert changes the unread count; ask for the status rather than guess it.
      service.on('alert', () => void this.reloadStatus()),
    ];
    this.timer = setInterval(() => {
      this.refresh();
      void this.newsWindow.reload();
    }, TRAY_REFRESH_MS);
    this.refresh();
    void this.newsWindow.reload();
    void this.reloadStatus();
    void this.loadTimeZone();
  }

  private icon(state: TrayState) {
    const image = nativeImage.createFromPath(trayIconFile(this.assetsDir, state, this.platform));
    if (this.platform === 'darwin') image.setTemplateImage(true);
    return image;
  }

  setStatus(status: AppStatus): void {
    this.status = status;
    this.refresh();
  }

  /** The app's zone setting, for "pause until tomorrow 08:00". Never throws. */
  private async loadTimeZone(): Promise<void> {
    const zone = await this.service.api.getSettings().then(
      (s) => s.timeZone,
      () => this.timeZone,
    );
    if (zone !== this.timeZone) {
      this.timeZone = zone;
      this.refresh();
    }
  }

  /** Fetch the status now (at start, after an alert or a pause). Never throws. */
  async reloadStatus(): Promise<void> {
    try {
      this.setStatus(await this.service.api.getStatus());
    } catch {
      // The next status push corrects the tray; nothing for the user to do here.
    }
  }

  refresh(): void {
    const state = trayState(this.status);
    if (state !== this.state) {
      this.state = state;
      this.tray.setImage(this.icon(state));
    }
    this.tray.setToolTip(tooltip(this.status, this.newsWindow.current()));
    let upcoming: ReturnType<MacrobellService['upcomingReleases']> = [];
    try {
      upcoming = this.service.upcomingReleases(5);
    } catch {
      // A closed or busy store must not take the tray down; the list comes back next refresh.
    }
    const template = buildTrayMenu({
      upcoming,
      status: this.status,
      startAtLogin: this.startAtLogin(),
      now: Date.now(),
      timeZone: this.timeZone,
      actions: this.actions,
      update: this.update,
    });
    this.tray.setContextMenu(Menu.buildFromTemplate(template));
  }

  /** The news-window countdown: beside the icon on macOS (a title), in the tooltip everywhere. */
  private showNewsWindow(text: string | null): void {
    if (this.tray.isDestroyed()) return;
    this.tray.setTitle(text ?? '');
    this.tray.setToolTip(tooltip(this.status, text));
  }

  /** The auto-updater's state: "Restart to update" appears once an update is ready. */
  setUpdate(update: UpdateNotice): void {
    this.update = update;
    this.refresh();
  }

  /** The icon is in the tray (the smoke test asks). */
  exists(): boolean {
    return !this.tray.isDestroyed();
  }

  destroy(): void {
    clearInterval(this.timer);
    this.newsWindow.stop();
    this.offs.forEach((off) => off());
    this.tray.destroy();
  }
}
