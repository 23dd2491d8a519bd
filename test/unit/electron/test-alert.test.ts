/**
 * "Send test alert" and the fallback banner in the desktop shell, against the fake
 * `electron`: what the OS did (shown / failed / suppressed) comes back to Settings, and
 * whenever a notification did not get through the window comes up on top with the banner.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import { fakeService, until } from './fake-service.js';
import { runShell, type Shell } from '../../../src/main/electron/app.js';
import { createModeSwitchingService } from '../../../src/main/mode-switch.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { createAppService } from '../../../src/main/service.js';
import { gatherNotificationFacts } from '../../../src/main/electron/notification-facts.js';
import { APP_USER_MODEL_ID, type OsNotificationFacts } from '../../../src/main/notify/os-checks.js';
import { IPC_REQUEST_CHANNEL, ipcPushChannel } from '../../../src/shared/ipc.js';
import type { NativeNotification, TestAlertResult } from '../../../src/shared/domain.js';

beforeEach(() => fake.resetFakeElectron());

const BANNER = ipcPushChannel('banner');
const loginItemEnv = { platform: 'darwin' as const, configDir: '/nonexistent', command: '/x' };
const windowsOk: OsNotificationFacts = {
  platform: 'win32',
  supported: true,
  appUserModelId: APP_USER_MODEL_ID,
  shortcut: 'ok',
};

/**
 * The shell on a core: the real one behind the real mode switch (what `loadService` gives
 * the shell: auto mode, demo data) for "Send test alert"; the stand-in where a test emits a
 * notification itself.
 */
async function started(facts: OsNotificationFacts, core: 'real' | 'stand-in' = 'real') {
  const svc = fakeService();
  const dataDir = mkdtempSync(join(tmpdir(), 'mb-test-alert-'));
  const shell = await runShell({
    createService:
      core === 'real'
        ? (opts) =>
            createModeSwitchingService(createAppService, {
              ...opts,
              dataDir,
              secretStore: new MemorySecretStore(),
              logFile: null,
              logLevel: 'silent',
              demo: { autoplay: false },
            })
        : async () => svc,
    loginItemEnv,
    argv: ['/opt/Macrobell/macrobell'],
    trayHost: async () => 'present',
    notificationFacts: async () => facts,
    notificationConfirmMs: 20,
  });
  if (!shell) throw new Error('the shell did not start');
  running.push(shell);
  const win = fake.BrowserWindow.instances[0] as fake.BrowserWindow;
  win.emit('ready-to-show');
  win.webContents.finishLoad();
  win.userClose(); // in the tray, as during a trading day
  const invoke = async (method: string) => {
    const handler = fake.ipcMain.handlers.get(IPC_REQUEST_CHANNEL);
    const event = { sender: win.webContents, senderFrame: { url: 'app://macrobell/index.html' } };
    return (await handler?.(event, method, undefined)) as { ok: boolean; value: unknown };
  };
  return { svc, win, invoke };
}

const running: Shell[] = [];
afterEach(async () => {
  for (const shell of running.splice(0)) await shell.service.stop();
});

const banners = (win: fake.BrowserWindow) =>
  win.webContents.sent.filter(([ch]) => ch === BANNER).map(([, n]) => n as NativeNotification);

describe('Send test alert', () => {
  it('raises a real notification and reports the OS showed it (no banner)', async () => {
    fake.Notification.answer = 'show';
    const { win, invoke } = await started(windowsOk);
    const answer = await invoke('sendTestAlert');
    const result = answer.value as TestAlertResult;
    expect(result).toMatchObject({ outcome: 'shown', banner: false });
    expect(result.checks.every((c) => c.ok === true)).toBe(true);
    // once, through the real core and mode switch: one native notification, one toast
    expect(fake.Notification.shown.map((n) => n.options.title)).toEqual(['Macrobell test alert']);
    const toasts = win.webContents.sent.filter(([ch]) => ch === ipcPushChannel('notification'));
    expect(toasts).toHaveLength(1);
    expect(banners(win)).toEqual([]);
    expect(win.visible).toBe(false);
  });

  it('reports a refusal, and the window comes up on top with the banner instead', async () => {
    fake.Notification.answer = 'failed';
    const { win, invoke } = await started(windowsOk);
    const result = (await invoke('sendTestAlert')).value as TestAlertResult;
    expect(result).toMatchObject({ outcome: 'failed', banner: true });
    expect(result.summary).toMatch(/refused/);
    expect(win.alwaysOnTop).toBe('screen-saver');
    // on top, but the trading platform keeps the keyboard
    expect([win.visible, win.shownInactive, win.focused]).toEqual([true, true, false]);
    expect(banners(win).map((n) => n.title)).toEqual(['Macrobell test alert']);

    await invoke('dismissAlertBanner');
    expect(win.alwaysOnTop).toBe(false);
  });

  it('Windows without the Start-menu shortcut: suppressed, with the fix', async () => {
    const { invoke } = await started({ ...windowsOk, shortcut: 'missing' });
    const result = (await invoke('sendTestAlert')).value as TestAlertResult;
    expect(result.outcome).toBe('suppressed');
    expect(result.checks[0]).toMatchObject({ id: 'win-shortcut', ok: false });
    expect(result.checks[0]?.fix).toMatch(/Reinstall Macrobell with its installer/);
  });
});

describe('a real alert the OS does not show', () => {
  const print: NativeNotification = {
    title: 'US Nonfarm Payrolls: 275K vs 200K consensus — beat',
    body: 'prev 229K',
    target: { type: 'alerts' },
    alertIds: [7],
    silent: false,
    volatility: 'HIGH',
  };

  it('Linux with no notification daemon: shown natively anyway, and as the banner', async () => {
    const { svc, win } = await started(
      { platform: 'linux', supported: true, daemon: 'absent', desktopEntry: true },
      'stand-in',
    );
    svc.emit('notification', print);
    await until(() => banners(win).length === 1, 'the banner');
    expect(fake.Notification.shown).toHaveLength(1);
    expect(win.alwaysOnTop).toBe('screen-saver');
  });

  it('no native notifications at all: the banner at once', async () => {
    fake.Notification.supported = false;
    const { svc, win } = await started(windowsOk, 'stand-in');
    svc.emit('notification', print);
    await until(() => banners(win).length === 1, 'the banner');
    expect(banners(win)[0]?.alertIds).toEqual([7]);
  });
});

/** A private session bus whose only activatable services are the ones given. */
async function privateBus(services: string[]): Promise<{ address: string; stop(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'mb-dbus-'));
  mkdirSync(join(dir, 'services'));
  for (const name of services)
    writeFileSync(
      join(dir, 'services', `${name}.service`),
      `[D-BUS Service]\nName=${name}\nExec=/bin/false\n`,
    );
  writeFileSync(
    join(dir, 'bus.conf'),
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:tmpdir=${dir}</listen><auth>EXTERNAL</auth>
<servicedir>${join(dir, 'services')}</servicedir>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`,
  );
  const daemon: ChildProcess = spawn(
    'dbus-daemon',
    [`--config-file=${join(dir, 'bus.conf')}`, '--nofork', '--print-address'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const address = await new Promise<string>((resolve, reject) => {
    daemon.once('error', reject);
    createInterface({ input: daemon.stdout! }).once('line', resolve);
  });
  return {
    address,
    stop: () => {
      daemon.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('what each OS lets us know', () => {
  let cleanup: (() => void)[] = [];
  afterEach(() => {
    cleanup.forEach((c) => c());
    cleanup = [];
  });
  const home = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mb-home-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  it('Linux: the notification daemon on a real session bus, and the desktop entry', async () => {
    const none = await privateBus([]);
    cleanup.push(none.stop);
    const dataHome = home();
    const env = { PATH: process.env.PATH, DBUS_SESSION_BUS_ADDRESS: none.address };
    const facts = (e: NodeJS.ProcessEnv) =>
      gatherNotificationFacts({ platform: 'linux', env: e, home: dataHome, appUserModelId: null });
    expect(await facts({ ...env, XDG_DATA_DIRS: '/nonexistent' })).toEqual({
      platform: 'linux',
      supported: true,
      daemon: 'absent',
      desktopEntry: false,
    });

    const activatable = await privateBus(['org.freedesktop.Notifications']);
    cleanup.push(activatable.stop);
    mkdirSync(join(dataHome, '.local/share/applications'), { recursive: true });
    writeFileSync(
      join(dataHome, '.local/share/applications/macrobell.desktop'),
      '[Desktop Entry]\n',
    );
    expect(
      await facts({ ...env, DBUS_SESSION_BUS_ADDRESS: activatable.address, XDG_DATA_DIRS: '/x' }),
    ).toMatchObject({ daemon: 'activatable', desktopEntry: true });
    // no session bus at all: unknown, never a crash
    expect(
      await facts({ PATH: process.env.PATH, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' }),
    ).toMatchObject({ daemon: 'unknown' });
  });

  it('Windows: the Start-menu shortcut and the id it carries', async () => {
    const env = { APPDATA: 'C:/Users/t/AppData/Roaming' };
    const link = 'C:/Users/t/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Macrobell.lnk';
    const facts = () =>
      gatherNotificationFacts({
        platform: 'win32',
        env,
        home: 'C:/Users/t',
        appUserModelId: APP_USER_MODEL_ID,
      });
    expect(await facts()).toMatchObject({ shortcut: 'missing', appUserModelId: APP_USER_MODEL_ID });
    fake.shell.shortcuts.set(link, {
      target: 'C:/x/Macrobell.exe',
      appUserModelId: 'electron.app',
    });
    expect(await facts()).toMatchObject({ shortcut: 'wrong-id' });
    fake.shell.shortcuts.set(link, {
      target: 'C:/x/Macrobell.exe',
      appUserModelId: APP_USER_MODEL_ID,
    });
    expect(await facts()).toMatchObject({ shortcut: 'ok' });
  });

  it('macOS: a Focus on, from the Do Not Disturb assertions file', async () => {
    const dir = home();
    const facts = () =>
      gatherNotificationFacts({ platform: 'darwin', env: {}, home: dir, appUserModelId: null });
    expect(await facts()).toMatchObject({ focus: 'unknown', permission: 'unknown' });
    const db = join(dir, 'Library/DoNotDisturb/DB');
    mkdirSync(db, { recursive: true });
    writeFileSync(
      join(db, 'Assertions.json'),
      JSON.stringify({ data: [{ storeAssertionRecords: [{ assertionDetails: {} }] }] }),
    );
    expect(await facts()).toMatchObject({ focus: 'on' });
    writeFileSync(join(db, 'Assertions.json'), JSON.stringify({ data: [{}] }));
    expect(await facts()).toMatchObject({ focus: 'off' });
  });
});
