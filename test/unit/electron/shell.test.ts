import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import { eventDate, fakeService, until } from './fake-service.js';
import { runShell, type ShellDeps } from '../../../src/main/electron/app.js';
import { showNotification } from '../../../src/main/electron/notifications.js';
import { ipcPushChannel } from '../../../src/shared/ipc.js';
import type { NativeNotification } from '../../../src/shared/domain.js';

beforeEach(() => fake.resetFakeElectron());

const NAVIGATE = ipcPushChannel('navigate');
const nfpTarget = { type: 'eventDate' as const, eventDateId: 'ed-nfp', eventId: 'ev-nfp' };
const released: NativeNotification = {
  title: 'US NFP 275K vs 200K expected',
  body: 'prev 229K — beat',
  target: nfpTarget,
  alertIds: [1],
  silent: false,
};

// Never touch the real ~/.config/autostart from a test.
const loginItemEnv = { platform: 'darwin' as const, configDir: '/nonexistent', command: '/x' };

async function started(svc = fakeService(), deps: Partial<ShellDeps> = {}) {
  const shell = await runShell({
    createService: async () => svc,
    loginItemEnv,
    argv: ['/opt/Macrobell/macrobell'],
    trayHost: async () => 'present',
    notificationFacts: async () => ({ platform: 'other', supported: true }),
    ...deps,
  });
  if (!shell) throw new Error('the shell did not start');
  const win = fake.BrowserWindow.instances[0] as fake.BrowserWindow;
  const tray = fake.Tray.instances[0] as fake.Tray;
  return { shell, svc, win, tray };
}

describe('single instance', () => {
  it('quits at once when another instance holds the lock', async () => {
    fake.app.lockAcquired = false;
    const createService = vi.fn();
    expect(await runShell({ createService, loginItemEnv })).toBeNull();
    expect(fake.app.quit).toHaveBeenCalled();
    expect(createService).not.toHaveBeenCalled();
    expect(fake.BrowserWindow.instances).toHaveLength(0);
  });

  it('brings the existing window forward on a second launch', async () => {
    const { win } = await started();
    win.emit('ready-to-show');
    win.userClose();
    expect(win.visible).toBe(false);
    fake.app.emit('second-instance');
    expect(win.visible).toBe(true);
    expect(win.focused).toBe(true);
    expect(fake.BrowserWindow.instances).toHaveLength(1);
    expect(fake.app.quit).not.toHaveBeenCalled();
  });
});

describe('start-up', () => {
  it('starts the service on userData with the Electron SQLite build, and opens the window', async () => {
    const createService = vi.fn(async () => fakeService());
    await runShell({ createService, loginItemEnv, trayHost: async () => 'present' });
    expect(fake.app.getPath).toHaveBeenCalledWith('userData');
    expect(createService).toHaveBeenCalledWith({
      dataDir: '/tmp/macrobell-fake-userdata',
      mode: 'auto',
      nativeBinding: undefined, // not built in this checkout; the core falls back to Node's
      appVersion: '0.1.0',
    });
    const win = fake.BrowserWindow.instances[0] as fake.BrowserWindow;
    expect(win.loaded).toBe('app://macrobell/index.html');
    expect(fake.protocol.privileged).toEqual([
      {
        scheme: 'app',
        privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
      },
    ]);
    expect(fake.session.defaultSession.protocol.handlers.has('app')).toBe(true);
    expect(win.options.webPreferences).toMatchObject({ preload: '/app/out/preload/index.cjs' });
    expect(fake.session.defaultSession.permissionHandler).not.toBeNull();
  });

  it('keeps crash minidumps on this machine: the crash reporter never uploads', async () => {
    await started();
    expect(fake.crashReporter.start).toHaveBeenCalledTimes(1);
    const options = fake.crashReporter.start.mock.calls[0]?.[0];
    expect(options?.uploadToServer).toBe(false);
    expect(options?.submitURL).toBeUndefined();
  });

  it('shows "Demo data" in the tray tooltip in demo mode', async () => {
    const { tray } = await started();
    await until(() => tray.tooltip.startsWith('Macrobell — Demo data — '), 'the demo tooltip');
  });
});

describe('window lifecycle', () => {
  it('hides on close (the app stays in the tray) and Quit really quits, stopping the service', async () => {
    const { svc, win, tray } = await started();
    win.emit('ready-to-show');
    expect(win.userClose()).toBe(false);
    expect(win.visible).toBe(false);
    expect(fake.app.exit).not.toHaveBeenCalled();

    tray.item('Quit Macrobell').click?.({ checked: false });
    await until(() => fake.app.exit.mock.calls.length > 0, 'the app to exit');
    expect(fake.app.exit).toHaveBeenCalledWith(0);
    expect(svc.stopped).toBe(1);
    expect(tray.destroyed).toBe(true);
    expect(win.userClose()).toBe(true); // quitting: close really closes
  });

  it('exits even when the service never finishes stopping', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const svc = fakeService();
      svc.stop = () => new Promise(() => undefined);
      await started(svc);
      fake.app.quit();
      expect(fake.app.exit).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(6_000);
      expect(fake.app.exit).toHaveBeenCalledWith(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('native notifications', () => {
  it('shows the alert natively; a click brings the window forward on that event', async () => {
    const { svc, win } = await started();
    win.emit('ready-to-show');
    win.webContents.finishLoad();
    win.userClose();
    svc.emit('notification', released);
    const n = fake.Notification.shown.at(-1) as fake.Notification;
    // silent: the window plays the app's own per-impact sound (see Toasts)
    expect(n.options).toMatchObject({ title: released.title, body: released.body, silent: true });
    n.emit('click');
    expect(win.visible).toBe(true);
    expect(win.focused).toBe(true);
    expect(win.webContents.sent).toContainEqual([NAVIGATE, nfpTarget]);
  });

  it('delivers the navigation once a freshly created window has loaded', async () => {
    const { svc, win } = await started();
    win.destroyed = true; // e.g. the renderer crashed and the window went away
    svc.emit('notification', { ...released, target: { type: 'alerts' } });
    (fake.Notification.shown.at(-1) as fake.Notification).emit('click');
    const fresh = fake.BrowserWindow.instances[1] as fake.BrowserWindow;
    expect(fresh).toBeDefined();
    expect(fresh.webContents.sent).toEqual([]);
    fresh.webContents.finishLoad();
    expect(fresh.webContents.sent).toEqual([[NAVIGATE, { type: 'alerts' }]]);
  });

  it('shows nothing where the OS has no notifications', () => {
    fake.Notification.supported = false;
    expect(showNotification(released, vi.fn())).toBe(false);
    expect(fake.Notification.shown).toEqual([]);
  });

  it('replaces the notification of an alert replaced in place, one on screen', () => {
    showNotification({ ...released, alertIds: [41], deliveryId: 1, body: '999 — beat' }, vi.fn());
    const forged = fake.Notification.shown.at(-1) as fake.Notification;
    showNotification({ ...released, alertIds: [41], deliveryId: 2, body: '4.25 — miss' }, vi.fn());
    const real = fake.Notification.shown.at(-1) as fake.Notification;
    expect(forged.closed).toBe(true);
    expect(real.closed).toBe(false);
    expect(real.options.body).toBe('4.25 — miss');
    // another alert's notification stays
    showNotification({ ...released, alertIds: [42], deliveryId: 3 }, vi.fn());
    expect(real.closed).toBe(false);
  });

  it('is quiet during quiet hours', () => {
    showNotification({ ...released, silent: true }, vi.fn());
    expect((fake.Notification.shown.at(-1) as fake.Notification).options.silent).toBe(true);
  });
});

describe('tray actions', () => {
  it('opens the window on an upcoming release, on Settings, and on Open', async () => {
    const svc = fakeService();
    svc.upcoming = [eventDate({ dateUtc: new Date(Date.now() + 3_600_000).toISOString() })];
    const { win, tray } = await started(svc);
    win.webContents.finishLoad();
    tray.item('US NFP · in 1h 00m').click?.({ checked: false });
    expect(win.visible).toBe(true);
    expect(win.webContents.sent.at(-1)).toEqual([NAVIGATE, nfpTarget]);
    tray.item('Settings…').click?.({ checked: false });
    expect(win.webContents.sent.at(-1)).toEqual([NAVIGATE, { type: 'settings' }]);
  });

  it('pauses alerts through the API with the chosen end, then shows the new state', async () => {
    const { svc, tray } = await started();
    const before = Date.now();
    tray.item('For 1 hour').click?.({ checked: false });
    await until(() => svc.calls.some((c) => c.method === 'pauseAlerts'), 'pauseAlerts');
    const { until: end } = svc.calls.find((c) => c.method === 'pauseAlerts')?.input as {
      until: number;
    };
    expect(end).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(end).toBeLessThanOrEqual(Date.now() + 3_600_000);
    tray.item('Resume alerts').click?.({ checked: false });
    await until(
      () =>
        svc.calls.some(
          (c) => c.method === 'pauseAlerts' && (c.input as { until: unknown }).until === null,
        ),
      'resume',
    );
    const statusReads = svc.calls.filter((c) => c.method === 'getStatus').length;
    expect(statusReads).toBeGreaterThanOrEqual(2); // the initial read, then after the pause
  });

  it('turns start at login on through the OS and saves it in the settings', async () => {
    const { svc, tray } = await started();
    expect(tray.item('Start at login').checked).toBe(false);
    tray.item('Start at login').click?.({ checked: true });
    expect(fake.app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true });
    await until(() => svc.calls.some((c) => c.method === 'updateSettings'), 'updateSettings');
    expect(svc.calls.find((c) => c.method === 'updateSettings')?.input).toEqual({
      startAtLogin: true,
    });
    expect(tray.item('Start at login').checked).toBe(true);
  });
});
