import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import { eventDate, fakeService, status, until } from './fake-service.js';
import {
  buildTrayMenu,
  countdownLabel,
  tomorrowMorning,
  tooltip,
  trayState,
} from '../../../src/main/electron/tray-menu.js';
import { trayIconFile } from '../../../src/main/electron/paths.js';
import type { ConnectionInfo } from '../../../src/shared/domain.js';
import { AppTray, TRAY_REFRESH_MS } from '../../../src/main/electron/tray.js';

const now = Date.parse('2026-11-06T12:25:00Z');
const actions = () => ({
  openEvent: vi.fn(),
  pause: vi.fn(),
  open: vi.fn(),
  settings: vi.fn(),
  toggleStartAtLogin: vi.fn(),
  quit: vi.fn(),
});

/**
 * The tray's menu at `now`, with nothing coming up, the default status and start at login
 * off unless a test says otherwise: each test names only what it is about.
 */
const menuWith = (opts: Partial<Parameters<typeof buildTrayMenu>[0]> = {}) =>
  buildTrayMenu({
    upcoming: [],
    status: status(),
    startAtLogin: false,
    now,
    actions: actions(),
    ...opts,
  });
/** The submenu under the menu item labelled `label` (the pause choices). */
const submenu = (menu: ReturnType<typeof buildTrayMenu>, label: string) =>
  menu.find((m) => m.label === label)?.submenu as fake.FakeMenuItem[];

beforeEach(() => fake.resetFakeElectron());
afterEach(() => vi.useRealTimers());

describe('tray menu', () => {
  it('lists the next releases with a countdown, each opening its event', () => {
    const a = actions();
    const nfp = eventDate();
    const cpi = eventDate({
      id: 'ed-cpi',
      name: 'CPI',
      countryCode: 'EU',
      dateUtc: '2026-11-08T10:00:00Z',
    });
    const menu = menuWith({ upcoming: [nfp, cpi], actions: a });
    const labels = menu.map((m) => m.label);
    expect(labels.slice(0, 3)).toEqual([
      'Next high-impact releases (demo data)',
      'US NFP · in 1h 05m',
      'EU CPI · in 1d 21h',
    ]);
    expect(labels.filter(Boolean).slice(3)).toEqual([
      'Pause alerts',
      'Open Macrobell',
      'Settings…',
      'Start at login',
      'Quit Macrobell',
    ]);
    (menu[1]?.click as () => void)();
    expect(a.openEvent).toHaveBeenCalledWith(nfp);
    const quit = menu.find((m) => m.label === 'Quit Macrobell');
    expect(quit?.role).toBeUndefined(); // a role would make Electron ignore the click
    (quit?.click as () => void)();
    expect(a.quit).toHaveBeenCalled();
  });

  it('says so when nothing is coming up', () => {
    const menu = menuWith({ status: null, startAtLogin: true });
    expect(menu[0]?.label).toBe('Next high-impact releases');
    expect(menu[1]).toMatchObject({ label: 'No high-impact releases coming up', enabled: false });
    expect(menu.find((m) => m.label === 'Start at login')).toMatchObject({
      type: 'checkbox',
      checked: true,
    });
  });

  it('pauses for an hour, until 08:00 tomorrow, or resumes', () => {
    const a = actions();
    const pausedUntil = now + 600_000;
    const menu = menuWith({
      status: status({ alertsPausedUntil: pausedUntil }),
      clock: () => now,
      actions: a,
    });
    const pause = submenu(menu, 'Alerts paused');
    expect(pause.map((p) => p.label)).toEqual([
      'For 1 hour',
      'Until tomorrow 08:00',
      'Resume alerts',
    ]);
    pause[0]?.click?.({ checked: false });
    expect(a.pause).toHaveBeenLastCalledWith(now + 3_600_000);
    pause[1]?.click?.({ checked: false });
    const tomorrow = new Date(a.pause.mock.calls.at(-1)?.[0] as number);
    expect([tomorrow.getHours(), tomorrow.getMinutes()]).toEqual([8, 0]);
    expect(tomorrow.getDate()).toBe(new Date(now + 86_400_000).getDate());
    expect(pause[2]?.enabled).toBe(true);
    pause[2]?.click?.({ checked: false });
    expect(a.pause).toHaveBeenLastCalledWith(null);
    const sub = submenu(menuWith({ actions: a }), 'Pause alerts');
    expect(sub[2]?.enabled).toBe(false);
  });

  it('pauses for an hour from the click, not from when the menu was built', () => {
    const a = actions();
    let clicked = now + 30 * 60_000; // the menu was built half an hour before the click
    const pause = submenu(menuWith({ clock: () => clicked, actions: a }), 'Pause alerts');
    pause[0]?.click?.({ checked: false });
    expect(a.pause).toHaveBeenLastCalledWith(clicked + 3_600_000);
    // built at 07:25 New York time, clicked just past midnight: 08:00 of the day after the click
    clicked = Date.parse('2026-11-07T05:05:00Z'); // 00:05 in New York on Saturday
    const late = menuWith({ clock: () => clicked, timeZone: 'America/New_York', actions: a });
    const sub = submenu(late, 'Pause alerts');
    sub[1]?.click?.({ checked: false });
    expect(new Date(a.pause.mock.calls.at(-1)?.[0] as number).toISOString()).toBe(
      '2026-11-08T13:00:00.000Z', // 08:00 EST on Sunday
    );
  });

  it('formats countdowns a trader can scan', () => {
    expect(countdownLabel(now + 20_000, now)).toBe('now');
    expect(countdownLabel(now - 60_000, now)).toBe('now');
    expect(countdownLabel(now + 9 * 60_000, now)).toBe('in 9m');
    expect(countdownLabel(now + 65 * 60_000, now)).toBe('in 1h 05m');
    expect(countdownLabel(now + 26 * 3_600_000, now)).toBe('in 1d 2h');
    expect(new Date(tomorrowMorning(now)).getHours()).toBe(8);
  });

  it('"until tomorrow 08:00" is 08:00 in the app’s time zone, not the machine’s (DST included)', () => {
    // 07:25 in New York on Friday → 08:00 New York on Saturday, whatever zone the machine is in
    expect(new Date(tomorrowMorning(now, 'America/New_York')).toISOString()).toBe(
      '2026-11-07T13:00:00.000Z',
    );
    expect(new Date(tomorrowMorning(now, 'Asia/Tokyo')).toISOString()).toBe(
      '2026-11-06T23:00:00.000Z', // 21:25 in Tokyo on Friday → 08:00 Saturday (23:00 UTC Friday)
    );
    // the night clocks go forward in New York: 08:00 EDT is 12:00 UTC
    expect(
      new Date(
        tomorrowMorning(Date.parse('2026-03-07T15:00:00Z'), 'America/New_York'),
      ).toISOString(),
    ).toBe('2026-03-08T12:00:00.000Z');
    const a = actions();
    const menu = menuWith({ clock: () => now, timeZone: 'America/New_York', actions: a });
    const pause = submenu(menu, 'Pause alerts');
    pause.find((p) => p.label === 'Until tomorrow 08:00')?.click?.({ checked: false });
    expect(a.pause).toHaveBeenLastCalledWith(Date.parse('2026-11-07T13:00:00Z'));
  });
});

const offline: ConnectionInfo = {
  state: 'offline',
  transport: 'relay',
  reason: 'HTTP 503 from the calendar API',
  since: 1,
};
const late: ConnectionInfo = {
  state: 'late',
  transport: 'webhooks',
  reason: 'Webhooks are not arriving',
  since: 1,
};

describe('tray state', () => {
  it('is alerting with unread alerts and offline when offline or failing', () => {
    expect(trayState(null)).toBe('normal');
    expect(trayState(status())).toBe('normal');
    expect(trayState(status({ unreadAlerts: 2 }))).toBe('alerting');
    expect(trayState(status({ connection: offline, unreadAlerts: 2 }))).toBe('offline');
    // webhooks late: the safety net carries the feed, so the icon is not "offline"
    expect(trayState(status({ connection: late, unreadAlerts: 2 }))).toBe('alerting');
  });

  it('says demo, offline, errors and unread counts in the tooltip', () => {
    expect(tooltip(status())).toBe('Macrobell — Demo data — Live (polling)');
    expect(tooltip(status({ demo: false }))).toBe('Macrobell — Live (polling)');
    expect(tooltip(status({ unreadAlerts: 1 }))).toBe(
      'Macrobell — Demo data — Live (polling) — 1 unread alert',
    );
    expect(tooltip(status({ demo: false, connection: offline, unreadAlerts: 4 }))).toBe(
      'Macrobell — Offline — HTTP 503 from the calendar API — 4 unread alerts',
    );
    expect(tooltip(status({ demo: false, connection: late }))).toBe(
      'Macrobell — Live — webhooks late — Webhooks are not arriving',
    );
    const long = tooltip(status({ connection: { ...offline, reason: 'e'.repeat(300) } }));
    expect(long.length).toBeLessThanOrEqual(120);
  });

  it('uses template images on macOS, 22 px on Linux, 16 px (+@2x) on Windows', () => {
    expect(trayIconFile('/a', 'normal', 'darwin')).toBe('/a/tray/trayTemplate.png');
    expect(trayIconFile('/a', 'alerting', 'darwin')).toBe('/a/tray/tray-alertingTemplate.png');
    expect(trayIconFile('/a', 'offline', 'linux')).toBe('/a/tray/tray-offline-22.png');
    expect(trayIconFile('/a', 'alerting', 'win32')).toBe('/a/tray/tray-alerting.png');
  });
});

describe('AppTray', () => {
  it('pauses until 08:00 tomorrow in the zone the settings name', async () => {
    const a = actions();
    const svc = fakeService({
      getSettings: async () => ({ timeZone: 'Pacific/Auckland' }),
    });
    const tray = new AppTray(svc, '/assets', a, () => false, 'linux');
    const t = fake.Tray.instances[0] as fake.Tray;
    await until(() => svc.calls.some((c) => c.method === 'getSettings'), 'the settings');
    await new Promise((r) => setImmediate(r));
    const before = Date.now();
    t.item('Until tomorrow 08:00').click?.({ checked: false });
    const until8 = a.pause.mock.calls.at(-1)?.[0] as number;
    const auckland = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Pacific/Auckland',
      hour: '2-digit',
      minute: '2-digit',
    }).format(until8);
    expect(auckland).toBe('08:00');
    expect(until8 - before).toBeGreaterThan(0);
    expect(until8 - before).toBeLessThanOrEqual(48 * 3_600_000);
    tray.destroy();
  });

  it('follows status pushes in its icon and tooltip, and lists upcoming releases', async () => {
    const svc = fakeService();
    svc.upcoming = [eventDate({ dateUtc: new Date(Date.now() + 3_900_000).toISOString() })];
    const tray = new AppTray(svc, '/assets', actions(), () => false, 'win32');
    const t = fake.Tray.instances[0] as fake.Tray;
    await until(() => t.tooltip === 'Macrobell — Demo data — Live (polling)', 'the first status');
    expect(t.image?.path).toBe('/assets/tray/tray-normal.png');
    expect(t.labels()).toContain('US NFP · in 1h 05m');

    svc.emit('status', status({ unreadAlerts: 2 }));
    expect(t.image?.path).toBe('/assets/tray/tray-alerting.png');
    svc.emit('status', status({ connection: { ...offline, reason: null } }));
    expect(t.image?.path).toBe('/assets/tray/tray-offline.png');
    expect(t.tooltip).toBe('Macrobell — Demo data — Offline');
    tray.destroy();
    expect(t.destroyed).toBe(true);
    expect(svc.listenerCount('status')).toBe(0);
  });

  it('re-reads the status after an alert, and rebuilds the menu on changes and every 30 s', async () => {
    let unread = 0;
    const svc = fakeService({}, () => status({ unreadAlerts: unread }));
    const tray = new AppTray(svc, '/assets', actions(), () => false, 'darwin');
    const t = fake.Tray.instances[0] as fake.Tray;
    await until(() => t.tooltip !== '' && svc.calls.length > 0, 'the first status');
    expect(t.image?.path).toBe('/assets/tray/trayTemplate.png');
    unread = 1;
    svc.emit('alert', {} as never);
    await until(
      () => t.image?.path === '/assets/tray/tray-alertingTemplate.png',
      'the alerting icon',
    );

    svc.emit('changes', []);
    expect(t.labels()).toContain('No high-impact releases coming up');
    svc.upcoming = [eventDate({ dateUtc: new Date(Date.now() + 600_000).toISOString() })];
    svc.emit('changes', []);
    expect(t.labels()).toContain('US NFP · in 10m');

    vi.useFakeTimers({ now: Date.now() + 5 * 60_000, toFake: ['setInterval', 'Date'] });
    tray.destroy();
    const t2 = new AppTray(svc, '/assets', actions(), () => false, 'darwin');
    const tray2 = fake.Tray.instances[1] as fake.Tray;
    expect(tray2.labels()).toContain('US NFP · in 5m');
    vi.advanceTimersByTime(TRAY_REFRESH_MS * 2 + 1000);
    expect(tray2.labels()).toContain('US NFP · in 4m');
    t2.destroy();
  });

  it('keeps working when the store cannot list releases', () => {
    const svc = fakeService();
    svc.upcomingReleases = () => {
      throw new Error('database is closed');
    };
    const tray = new AppTray(svc, '/assets', actions(), () => false, 'linux');
    expect((fake.Tray.instances[0] as fake.Tray).labels()).toContain('Open Macrobell');
    tray.destroy();
  });
});
