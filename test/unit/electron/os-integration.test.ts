import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import { fakeService } from './fake-service.js';
import { runShell } from '../../../src/main/electron/app.js';
import { deepLinkInArgv, parseDeepLink } from '../../../src/main/electron/deep-link.js';
import {
  autostartFile,
  setStartAtLogin,
  startedAtLogin,
} from '../../../src/main/electron/login-item.js';
import { checkTrayHost } from '../../../src/main/electron/os-integration.js';
import {
  parseHostRegistered,
  statusNotifierHost,
  type TrayHostAnswer,
} from '../../../src/main/electron/tray-host.js';
import { ipcPushChannel } from '../../../src/shared/ipc.js';

beforeEach(() => fake.resetFakeElectron());

const NAVIGATE = ipcPushChannel('navigate');
const loginItemEnv = { platform: 'darwin' as const, configDir: '/nonexistent', command: '/x' };
const EXE = '/opt/Macrobell/macrobell';

async function shell(
  argv: string[] = [EXE],
  trayHost: () => Promise<TrayHostAnswer> = async () => 'present',
) {
  const s = await runShell({
    createService: async () => fakeService(),
    loginItemEnv,
    argv,
    trayHost,
  });
  if (!s) throw new Error('no shell');
  return { s, win: () => fake.BrowserWindow.instances.at(-1) as fake.BrowserWindow };
}

describe('macrobell:// links', () => {
  it('parse into what they open, and nothing else', () => {
    expect(parseDeepLink('macrobell://event/ev-nfp/ed-nfp-2026-12')).toEqual({
      type: 'eventDate',
      eventId: 'ev-nfp',
      eventDateId: 'ed-nfp-2026-12',
    });
    expect(parseDeepLink('macrobell://news/en-US/post-1')).toEqual({
      type: 'post',
      culture: 'en-US',
      postId: 'post-1',
    });
    expect(parseDeepLink('macrobell://alerts')).toEqual({ type: 'alerts' });
    expect(parseDeepLink('macrobell://settings/')).toEqual({ type: 'settings' });
    expect(parseDeepLink('macrobell://open')).toEqual({ type: 'open' });
    for (const bad of [
      'https://event/a/b',
      'macrobell://event/a',
      'macrobell://event/a/b/c',
      'macrobell://event/<script>/b',
      'macrobell://news/english/p',
      'macrobell://settings/x',
      'macrobell://event/%E0%A4%A/b',
      'macrobell://wipe-cache',
      'not a url',
      `macrobell://event/${'a'.repeat(2000)}/b`,
    ])
      expect(parseDeepLink(bad), bad).toBeNull();
    expect(deepLinkInArgv([EXE, '--flag', 'macrobell://alerts'])).toBe('macrobell://alerts');
    expect(deepLinkInArgv([EXE])).toBeNull();
  });

  it('a link opened while Macrobell runs (second instance) opens that event in the running window', async () => {
    const { win } = await shell();
    win().webContents.finishLoad();
    win().userClose();
    fake.app.emit('second-instance', {}, [EXE, 'macrobell://event/ev-nfp/ed-nfp']);
    expect(win().visible).toBe(true);
    expect(win().webContents.sent).toContainEqual([
      NAVIGATE,
      { type: 'eventDate', eventId: 'ev-nfp', eventDateId: 'ed-nfp' },
    ]);
    expect(fake.BrowserWindow.instances).toHaveLength(1);
    // An invalid link only brings the window forward.
    win().userClose();
    const sent = win().webContents.sent.length;
    fake.app.emit('second-instance', {}, [EXE, 'macrobell://format-disk']);
    expect(win().visible).toBe(true);
    expect(win().webContents.sent).toHaveLength(sent);
  });

  it('a link that started the app opens once the window has loaded; macOS links come by open-url', async () => {
    const { win } = await shell([EXE, 'macrobell://alerts']);
    expect(win().webContents.sent).toEqual([]);
    win().webContents.finishLoad();
    expect(win().webContents.sent).toEqual([[NAVIGATE, { type: 'alerts' }]]);
    const event = { preventDefault: vi.fn() };
    fake.app.emit('open-url', event, 'macrobell://settings');
    expect(event.preventDefault).toHaveBeenCalled();
    expect(win().webContents.sent.at(-1)).toEqual([NAVIGATE, { type: 'settings' }]);
  });

  it('registers the scheme only in a packaged app', async () => {
    await shell();
    expect(fake.app.setAsDefaultProtocolClient).not.toHaveBeenCalled();
    fake.resetFakeElectron();
    fake.app.isPackaged = true;
    const resources = Object.getOwnPropertyDescriptor(process, 'resourcesPath');
    Object.defineProperty(process, 'resourcesPath', { value: '/opt/x', configurable: true });
    try {
      await shell();
    } finally {
      if (resources) Object.defineProperty(process, 'resourcesPath', resources);
      else delete (process as { resourcesPath?: string }).resourcesPath;
    }
    expect(fake.app.setAsDefaultProtocolClient).toHaveBeenCalledWith('macrobell');
  });
});

describe('start at login', () => {
  it('opens in the tray only when started at login', async () => {
    const { win } = await shell([EXE, '--hidden']);
    expect(fake.BrowserWindow.instances).toHaveLength(0);
    expect(win()).toBeUndefined();
    expect(startedAtLogin([EXE])).toBe(false);
  });

  it('writes the entry each OS reads, with the flag that keeps the window closed', () => {
    setStartAtLogin(true, { platform: 'win32', configDir: '/nonexistent', command: 'C:\\M.exe' });
    expect(fake.app.setLoginItemSettings).toHaveBeenCalledWith({
      openAtLogin: true,
      args: ['--hidden'],
    });
    setStartAtLogin(true, { platform: 'darwin', configDir: '/nonexistent', command: '/x' });
    expect(fake.app.setLoginItemSettings).toHaveBeenLastCalledWith({ openAtLogin: true });
    const dir = mkdtempSync(join(tmpdir(), 'macrobell-autostart-'));
    try {
      const env = {
        platform: 'linux' as const,
        configDir: dir,
        command: '/opt/Macrobell/macrobell',
      };
      setStartAtLogin(true, env);
      expect(readFileSync(autostartFile(env), 'utf8')).toContain(
        'Exec="/opt/Macrobell/macrobell" --hidden',
      );
      setStartAtLogin(false, env);
      expect(existsSync(autostartFile(env))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Linux without a tray host', () => {
  it('reads the StatusNotifier watcher answer', async () => {
    expect(parseHostRegistered('(<true>,)\n')).toBe(true);
    expect(parseHostRegistered('(<false>,)\n')).toBe(false);
    const answer = (err: Error | null, stdout = '') =>
      ((_cmd: string, _args: string[], _o: object, cb: (e: Error | null, out: string) => void) =>
        cb(err, stdout)) as never;
    expect(await statusNotifierHost('linux', answer(null, '(<true>,)'))).toBe('present');
    expect(await statusNotifierHost('linux', answer(null, '(<false>,)'))).toBe('absent');
    expect(await statusNotifierHost('linux', answer(new Error('ServiceUnknown')))).toBe('absent');
    const missing = Object.assign(new Error('spawn gdbus ENOENT'), { code: 'ENOENT' });
    expect(await statusNotifierHost('linux', answer(missing))).toBe('unknown');
    expect(await statusNotifierHost('darwin')).toBe('present');
  });

  it('says so once, and keeps the window in the taskbar: closing minimises instead of hiding', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'macrobell-notray-'));
    fake.app.paths.set('userData', dataDir);
    try {
      const { win } = await shell([EXE, '--hidden'], async () => 'absent');
      await vi.waitFor(() => expect(fake.dialog.showMessageBox).toHaveBeenCalledTimes(1));
      expect(fake.dialog.showMessageBox.mock.calls[0]?.[0].message).toMatch(/tray icons/);
      // Even a start at login shows the window: there is no icon to come back from.
      await vi.waitFor(() => expect(fake.BrowserWindow.instances).toHaveLength(1));
      win().emit('ready-to-show');
      expect(win().userClose()).toBe(false);
      expect(win().minimized).toBe(true);
      expect(win().visible).toBe(true);
      expect(await checkTrayHost(dataDir, async () => 'absent')).toBe(true);
      expect(fake.dialog.showMessageBox).toHaveBeenCalledTimes(1); // once, not every start
      expect(await checkTrayHost(dataDir, async () => 'unknown')).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
