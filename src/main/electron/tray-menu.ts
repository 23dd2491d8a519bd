/** The tray's menu and tooltip, built from plain data so they can be tested. */
import type { MenuItemConstructorOptions } from 'electron';
import { connectionLabel } from '../../shared/connection.js';
import type { AppStatus, EventDate } from '../../shared/domain.js';
import { wallClock } from '../alerts/zone.js';
import type { UpdateNotice } from '../../shared/ipc.js';

export type TrayState = 'normal' | 'alerting' | 'offline';

/** Offline or failing wins over unread alerts: stale data is the thing to notice first. */
export function trayState(status: AppStatus | null): TrayState {
  if (!status) return 'normal'; // not known yet (first status arrives within a moment)
  if (status.connection.state === 'offline') return 'offline';
  return status.unreadAlerts > 0 ? 'alerting' : 'normal';
}

export function tooltip(status: AppStatus | null, newsWindow: string | null = null): string {
  const parts = ['Macrobell'];
  // The no-trading countdown matters most: first, so Windows never cuts it off.
  if (newsWindow) parts.push(`News window: ${newsWindow}`);
  if (status?.demo) parts.push('Demo data');
  if (status) parts.push(connectionLabel(status.connection, status.demo));
  if (status && status.connection.state !== 'live' && status.connection.reason)
    parts.push(status.connection.reason);
  if (status && status.unreadAlerts > 0)
    parts.push(`${status.unreadAlerts} unread alert${status.unreadAlerts === 1 ? '' : 's'}`);
  // Windows cuts tray tooltips at 127 characters.
  const text = parts.join(' — ');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

export function countdownLabel(targetMs: number, now: number): string {
  const mins = Math.max(0, Math.round((targetMs - now) / 60_000));
  if (mins < 1) return 'now';
  const d = Math.floor(mins / 1440);
  const h = Math.floor(mins / 60) % 24;
  const m = mins % 60;
  if (d > 0) return `in ${d}d ${h}h`;
  return h > 0 ? `in ${h}h ${String(m).padStart(2, '0')}m` : `in ${m}m`;
}

/** 08:00 tomorrow in the app's time zone setting ("system" = the machine's), DST-aware. */
export function tomorrowMorning(now: number, timeZone = 'system'): number {
  return wallClock(now, timeZone)
    .plus({ days: 1 })
    .set({ hour: 8, minute: 0, second: 0, millisecond: 0 })
    .toMillis();
}

export interface TrayActions {
  openEvent(ed: EventDate): void;
  pause(until: number | null): void;
  open(): void;
  settings(): void;
  toggleStartAtLogin(on: boolean): void;
  quit(): void;
  /** Install the downloaded update now (shown only once one is ready). */
  restartToUpdate?(): void;
}

export function buildTrayMenu(opts: {
  upcoming: EventDate[];
  status: AppStatus | null;
  startAtLogin: boolean;
  now: number;
  /**
   * The time when an item is clicked (default the wall clock): the menu is built when the
   * status changes, maybe long before, and "For 1 hour" means an hour from the click.
   */
  clock?: () => number;
  /** The app's time zone setting, for "tomorrow 08:00". */
  timeZone?: string;
  actions: TrayActions;
  update?: UpdateNotice;
}): MenuItemConstructorOptions[] {
  const { upcoming, status, now, actions } = opts;
  const clock = opts.clock ?? Date.now;
  const update: MenuItemConstructorOptions[] =
    opts.update?.phase === 'ready' && actions.restartToUpdate
      ? [
          {
            label: `Restart to update (version ${opts.update.version})`,
            click: () => actions.restartToUpdate?.(),
          },
          { type: 'separator' },
        ]
      : [];
  const paused =
    status?.alertsPausedUntil !== null &&
    status?.alertsPausedUntil !== undefined &&
    status.alertsPausedUntil > now;
  const releases: MenuItemConstructorOptions[] =
    upcoming.length === 0
      ? [{ label: 'No high-impact releases coming up', enabled: false }]
      : upcoming.map((ed) => ({
          label: `${ed.countryCode} ${ed.name} · ${countdownLabel(Date.parse(ed.dateUtc), now)}`,
          click: () => actions.openEvent(ed),
        }));
  return [
    ...update,
    {
      label: status?.demo ? 'Next high-impact releases (demo data)' : 'Next high-impact releases',
      enabled: false,
    },
    ...releases,
    { type: 'separator' },
    {
      label: paused ? 'Alerts paused' : 'Pause alerts',
      submenu: [
        { label: 'For 1 hour', click: () => actions.pause(clock() + 3_600_000) },
        {
          label: 'Until tomorrow 08:00',
          click: () => actions.pause(tomorrowMorning(clock(), opts.timeZone)),
        },
        { label: 'Resume alerts', enabled: paused, click: () => actions.pause(null) },
      ],
    },
    { type: 'separator' },
    { label: 'Open Macrobell', click: () => actions.open() },
    { label: 'Settings…', click: () => actions.settings() },
    {
      label: 'Start at login',
      type: 'checkbox',
      checked: opts.startAtLogin,
      click: (item) => actions.toggleStartAtLogin(item.checked),
    },
    { type: 'separator' },
    // No `role: 'quit'` here: a role makes Electron ignore click.
    { label: 'Quit Macrobell', click: () => actions.quit() },
  ];
}
