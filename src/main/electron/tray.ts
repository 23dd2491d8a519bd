/** The tray icon: state icon, tooltip and a menu refreshed every 30 s and on changes. */
import { Menu, Tray, nativeImage } from 'electron';
import type { AppStatus } from '../../shared/domain.js';
import type { MacrobellService } from '../service-contract.js';
import { trayIconFile } from './paths.js';
import {
  buildTrayMenu,
  tooltip,
  trayState,
  type TrayActions,
  type TrayState,
} from './tray-menu.js';

export class AppTray {
  private readonly tray: Tray;
  private status: AppStatus | null = null;
  private state: TrayState | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly service: MacrobellService,
    private readonly assetsDir: string,
    private readonly actions: TrayActions,
    private readonly startAtLogin: () => boolean,
  ) {
    this.tray = new Tray(this.icon('normal'));
    this.tray.on('click', () => actions.open());
    service.on('status', (s) => {
      this.status = s;
      this.refresh();
    });
    service.on('changes', () => this.refresh());
    this.timer = setInterval(() => this.refresh(), 30_000);
    this.refresh();
  }

  private icon(state: TrayState) {
    const image = nativeImage.createFromPath(trayIconFile(this.assetsDir, state, process.platform));
    if (process.platform === 'darwin') image.setTemplateImage(true);
    return image;
  }

  refresh(): void {
    const state = trayState(this.status);
    if (state !== this.state) {
      this.state = state;
      this.tray.setImage(this.icon(state));
    }
    this.tray.setToolTip(tooltip(this.status));
    const template = buildTrayMenu({
      upcoming: this.service.upcomingReleases(5),
      status: this.status,
      startAtLogin: this.startAtLogin(),
      now: Date.now(),
      actions: this.actions,
    });
    this.tray.setContextMenu(Menu.buildFromTemplate(template));
  }

  destroy(): void {
    clearInterval(this.timer);
    this.tray.destroy();
  }
}
