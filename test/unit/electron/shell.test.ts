import { describe, expect, it, vi, beforeEach } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import {
  WEB_PREFERENCES,
  hardenContents,
  hardenSession,
  isAppUrl,
  openExternalSafely,
} from '../../../src/main/electron/security.js';
import { handleRequest, registerIpc, senderAllowed } from '../../../src/main/electron/ipc.js';
import { createWindow } from '../../../src/main/electron/window.js';
import { showNotification } from '../../../src/main/electron/notifications.js';
import {
  buildTrayMenu,
  countdownLabel,
  tomorrowMorning,
  tooltip,
  trayState,
} from '../../../src/main/electron/tray-menu.js';
import { trayIconFile } from '../../../src/main/electron/paths.js';
import { nativeBindingPath } from '../../../src/main/electron/native-binding.js';
import { runShell } from '../../../src/main/electron/app.js';
import { IPC_REQUEST_CHANNEL } from '../../../src/shared/channels.js';
import type { AppStatus, EventDate } from '../../../src/shared/domain.js';
import type { MacrobellService } from '../../../src/main/service-contract.js';

const APP = 'file:///app/out/renderer/index.html';

function fakeService(
  over: Partial<Record<string, (i: unknown) => Promise<unknown>>> = {},
): MacrobellService {
  const listeners = new Map<string, ((p: unknown) => void)[]>();
  return {
    api: new Proxy(
      {},
      { get: (_t, m: string) => over[m] ?? (async (i: unknown) => ({ called: m, input: i })) },
    ) as MacrobellService['api'],
    demo: true,
    dataDir: '/tmp',
    on: (e, l) => {
      listeners.set(e, [...(listeners.get(e) ?? []), l as (p: unknown) => void]);
      return () => undefined;
    },
    upcomingReleases: () => [],
    start: async () => undefined,
    stop: async () => undefined,
    emit: (e: string, p: unknown) => listeners.get(e)?.forEach((l) => l(p)),
  } as MacrobellService & { emit: (e: string, p: unknown) => void };
}

beforeEach(() => {
  fake.shell.openExternal.mockClear();
});

describe('window security', () => {
  it('creates the window isolated, sandboxed, without Node, and hides it on close', () => {
    let quitting = false;
    const win = createWindow({
      preload: '/app/out/preload/index.cjs',
      indexFile: '/app/out/renderer/index.html',
      quitting: () => quitting,
    }) as unknown as fake.BrowserWindow;
    const prefs = win.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      preload: '/app/out/preload/index.cjs',
    });
    expect(WEB_PREFERENCES.webviewTag).toBe(false);
    expect(win.loaded).toBe('/app/out/renderer/index.html');
    win.show();
    const event = { preventDefault: vi.fn() };
    win.emit('close', event);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(win.visible).toBe(false);
    quitting = true;
    const event2 = { preventDefault: vi.fn() };
    win.emit('close', event2);
    expect(event2.preventDefault).not.toHaveBeenCalled();
  });

  it('blocks navigation away from the app and opens only http(s) links externally', async () => {
    const wc = new fake.FakeWebContents();
    hardenContents(wc as never, APP);
    const nav = { preventDefault: vi.fn() };
    wc.emit('will-navigate', nav, 'https://evil.example/');
    expect(nav.preventDefault).toHaveBeenCalled();
    expect(fake.shell.openExternal).toHaveBeenCalledWith('https://evil.example/');
    const own = { preventDefault: vi.fn() };
    wc.emit('will-navigate', own, APP);
    expect(own.preventDefault).not.toHaveBeenCalled();
    expect(wc.openHandler?.({ url: 'https://news.example/a' })).toEqual({ action: 'deny' });
    expect(await openExternalSafely('javascript:alert(1)')).toBe(false);
    expect(await openExternalSafely('file:///etc/passwd')).toBe(false);
    const wv = { preventDefault: vi.fn() };
    wc.emit('will-attach-webview', wv);
    expect(wv.preventDefault).toHaveBeenCalled();
  });

  it('denies every permission request', () => {
    hardenSession(fake.session.defaultSession as never, false);
    const cb = vi.fn();
    fake.session.defaultSession.permissionHandler?.({}, 'notifications', cb);
    expect(cb).toHaveBeenCalledWith(false);
    expect(fake.session.defaultSession.checkHandler?.()).toBe(false);
    expect(isAppUrl('file:///other/index.html', APP)).toBe(false);
  });
});

describe('IPC', () => {
  it('accepts requests only from our window and our page', () => {
    const win = new fake.BrowserWindow({});
    const ok = { sender: { id: win.webContents.id }, senderFrame: { url: APP } };
    expect(senderAllowed(ok as never, win as never, APP)).toBe(true);
    expect(
      senderAllowed(
        { ...ok, senderFrame: { url: 'https://evil.example/' } } as never,
        win as never,
        APP,
      ),
    ).toBe(false);
    expect(senderAllowed({ ...ok, sender: { id: -1 } } as never, win as never, APP)).toBe(false);
    expect(senderAllowed(ok as never, null, APP)).toBe(false);
  });

  it('validates payloads, forwards valid ones, and never throws across IPC', async () => {
    const svc = fakeService({
      getPost: async () => {
        throw new Error('boom');
      },
    });
    expect(await handleRequest(svc, 'searchPosts', { query: '' })).toMatchObject({
      ok: false,
      error: { error: 'invalid_request' },
    });
    expect(await handleRequest(svc, 'nope', undefined)).toMatchObject({
      ok: false,
      error: { error: 'unknown_method' },
    });
    expect(await handleRequest(svc, 'searchPosts', { query: 'cpi' })).toEqual({
      ok: true,
      value: { called: 'searchPosts', input: { query: 'cpi' } },
    });
    expect(await handleRequest(svc, 'getPost', { id: 'x', culture: 'en-US' })).toEqual({
      ok: false,
      error: { error: 'Error', message: 'boom' },
    });
    expect(await handleRequest(svc, 'openExternal', { url: 'javascript:alert(1)' })).toMatchObject({
      ok: false,
    });
  });

  it('registers one request channel that rejects foreign senders', async () => {
    const win = new fake.BrowserWindow({});
    registerIpc(fakeService(), () => win as never, APP);
    const handler = fake.ipcMain.handlers.get(IPC_REQUEST_CHANNEL) as (
      ...a: unknown[]
    ) => Promise<unknown>;
    const foreign = await handler(
      { sender: { id: win.webContents.id }, senderFrame: { url: 'https://x.example/' } },
      'getStatus',
    );
    expect(foreign).toMatchObject({ ok: false, error: { error: 'forbidden' } });
    const ok = await handler(
      { sender: { id: win.webContents.id }, senderFrame: { url: APP } },
      'getStatus',
    );
    expect(ok).toMatchObject({ ok: true });
  });
});

describe('preload', () => {
  it('exposes exactly the contract and ignores unknown push names', async () => {
    await import('../../../src/preload/index.js');
    const api = fake.contextBridge.exposed.get('macrobell') as Record<string, unknown> & {
      on: (e: string, l: () => void) => () => void;
      invoke: (m: string, i: unknown) => Promise<unknown>;
    };
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on', 'platform']);
    fake.ipcRenderer.on.mockClear();
    api.on('not-an-event', () => undefined);
    expect(fake.ipcRenderer.on).not.toHaveBeenCalled();
    api.on('alert', () => undefined);
    expect(fake.ipcRenderer.on).toHaveBeenCalledWith('macrobell:push:alert', expect.any(Function));
    await api.invoke('getStatus', undefined);
    expect(fake.ipcRenderer.invoke).toHaveBeenCalledWith(
      IPC_REQUEST_CHANNEL,
      'getStatus',
      undefined,
    );
  });
});

const status = (over: Partial<AppStatus> = {}): AppStatus => ({
  demo: true,
  mode: 'polling',
  online: true,
  lastSyncAt: 1,
  tokens: { calendar: 'valid', news: 'valid' },
  credentials: {
    configured: false,
    maskedPublicKey: null,
    relayTokenConfigured: false,
    keychainAvailable: true,
    keychainError: null,
  },
  relay: null,
  backfill: null,
  lastError: null,
  alertsPausedUntil: null,
  unreadAlerts: 0,
  ...over,
});

describe('tray', () => {
  const ed = {
    id: 'ed1',
    eventId: 'e1',
    countryCode: 'US',
    name: 'Nonfarm Payrolls',
    dateUtc: '2026-11-06T13:30:00Z',
  } as EventDate;
  const now = Date.parse('2026-11-06T12:25:00Z');

  it('lists the next releases with a countdown and routes pause and open actions', () => {
    const actions = {
      openEvent: vi.fn(),
      pause: vi.fn(),
      open: vi.fn(),
      settings: vi.fn(),
      toggleStartAtLogin: vi.fn(),
      quit: vi.fn(),
    };
    const menu = buildTrayMenu({
      upcoming: [ed],
      status: status(),
      startAtLogin: false,
      now,
      actions,
    });
    const labels = menu.map((m) => m.label);
    expect(labels).toContain('US Nonfarm Payrolls · in 1h 05m');
    expect(labels).toEqual(
      expect.arrayContaining(['Open Macrobell', 'Settings…', 'Start at login', 'Quit Macrobell']),
    );
    (menu.find((m) => m.label === 'US Nonfarm Payrolls · in 1h 05m')?.click as () => void)();
    expect(actions.openEvent).toHaveBeenCalledWith(ed);
    const pause = menu.find((m) => m.label === 'Pause alerts')?.submenu as {
      label: string;
      click: () => void;
    }[];
    pause.find((p) => p.label === 'For 1 hour')?.click();
    expect(actions.pause).toHaveBeenCalledWith(now + 3_600_000);
    pause.find((p) => p.label === 'Until tomorrow 08:00')?.click();
    expect(actions.pause).toHaveBeenLastCalledWith(tomorrowMorning(now));
    expect(new Date(tomorrowMorning(now)).getHours()).toBe(8);
    expect(countdownLabel(now + 20_000, now)).toBe('now');
  });

  it('shows state in the icon and tooltip, with template images on macOS', () => {
    expect(trayState(status())).toBe('normal');
    expect(trayState(status({ unreadAlerts: 2 }))).toBe('alerting');
    expect(trayState(status({ mode: 'offline', online: false }))).toBe('offline');
    expect(tooltip(status({ unreadAlerts: 1 }))).toBe('Macrobell — Demo data — 1 unread alert');
    expect(trayIconFile('/a', 'alerting', 'darwin')).toBe('/a/tray/tray-alertingTemplate.png');
    expect(trayIconFile('/a', 'normal', 'darwin')).toBe('/a/tray/trayTemplate.png');
    expect(trayIconFile('/a', 'offline', 'linux')).toBe('/a/tray/tray-offline.png');
  });
});

describe('notifications and lifecycle', () => {
  it('shows a native notification whose click opens its target', () => {
    const onClick = vi.fn();
    const target = { type: 'eventDate' as const, eventDateId: 'ed1', eventId: 'e1' };
    expect(
      showNotification(
        { title: 'US NFP', body: '275K vs 200K', target, alertIds: [1], silent: true },
        onClick,
      ),
    ).toBe(true);
    const n = fake.Notification.shown.at(-1) as fake.Notification;
    expect(n.options).toMatchObject({ title: 'US NFP', silent: true });
    n.emit('click');
    expect(onClick).toHaveBeenCalledWith(target);
    fake.Notification.supported = false;
    expect(
      showNotification({ title: 't', body: 'b', target, alertIds: [], silent: false }, onClick),
    ).toBe(false);
    fake.Notification.supported = true;
  });

  it('quits at once when another instance holds the lock, and focuses it on a second launch', async () => {
    fake.app.lockAcquired = false;
    await runShell({ createService: vi.fn() as never });
    expect(fake.app.quit).toHaveBeenCalled();
    fake.app.lockAcquired = true;
    fake.app.quit.mockClear();
    const svc = fakeService();
    await runShell({ createService: (async () => svc) as never });
    expect(fake.app.quit).not.toHaveBeenCalled();
    const windows = fake.BrowserWindow.instances.length;
    const win = fake.BrowserWindow.instances.at(-1) as fake.BrowserWindow;
    win.hide();
    fake.app.emit('second-instance');
    expect(win.visible).toBe(true);
    expect(fake.BrowserWindow.instances.length).toBe(windows);
    expect(fake.Tray.instances.at(-1)?.tooltip).toContain('Macrobell');
  });

  it('finds the Electron build of better-sqlite3 where each layout keeps it', () => {
    expect(
      nativeBindingPath({ packaged: true, resourcesPath: '/nonexistent', appPath: '/app' }),
    ).toBeUndefined();
    expect(
      nativeBindingPath({ packaged: false, resourcesPath: '/x', appPath: process.cwd() }),
    ).toBe(undefined);
  });
});
