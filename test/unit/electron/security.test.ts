import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import {
  CSP,
  hardenContents,
  hardenSession,
  isAppUrl,
  openExternalSafely,
} from '../../../src/main/electron/security.js';
import { createWindow } from '../../../src/main/electron/window.js';

const APP = 'app://macrobell/index.html';
const DEV = 'http://localhost:5173/';

beforeEach(() => fake.resetFakeElectron());

describe('the window', () => {
  it('is isolated, sandboxed, without Node, with the preload, and hidden until ready', () => {
    const win = createWindow({
      preload: '/app/out/preload/index.cjs',
      quitting: () => false,
    }) as unknown as fake.BrowserWindow;
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
      preload: '/app/out/preload/index.cjs',
    });
    expect(win.options.show).toBe(false);
    expect(win.visible).toBe(false);
    win.emit('ready-to-show');
    expect(win.visible).toBe(true);
    expect(win.loaded).toBe(APP);
  });

  it('loads the dev server URL when electron-vite provides one', () => {
    const win = createWindow({
      preload: '/p.cjs',
      devServerUrl: DEV,
      quitting: () => false,
    }) as unknown as fake.BrowserWindow;
    expect(win.loaded).toBe(DEV);
  });

  it('hides on close while the app runs, and closes once quitting', () => {
    let quitting = false;
    const win = createWindow({
      preload: '/p.cjs',
      quitting: () => quitting,
    }) as unknown as fake.BrowserWindow;
    win.emit('ready-to-show');
    expect(win.userClose()).toBe(false);
    expect(win.visible).toBe(false);
    quitting = true;
    expect(win.userClose()).toBe(true);
  });
});

describe('navigation and links', () => {
  it('blocks navigation away from the app and opens the link in the browser once', () => {
    const wc = new fake.FakeWebContents();
    hardenContents(wc as never, APP);
    hardenContents(wc as never, APP); // createWindow and web-contents-created both harden
    const away = { preventDefault: vi.fn() };
    wc.emit('will-navigate', away, 'https://evil.example/');
    expect(away.preventDefault).toHaveBeenCalledTimes(1);
    expect(fake.shell.openExternal).toHaveBeenCalledTimes(1);
    expect(fake.shell.openExternal).toHaveBeenCalledWith('https://evil.example/');

    const own = { preventDefault: vi.fn() };
    wc.emit('will-navigate', own, `${APP}#/calendar`);
    expect(own.preventDefault).not.toHaveBeenCalled();

    const redirect = { preventDefault: vi.fn() };
    wc.emit('will-redirect', redirect, 'https://evil.example/login');
    expect(redirect.preventDefault).toHaveBeenCalled();
  });

  it('denies every new window, opening only http(s) links externally', () => {
    const wc = new fake.FakeWebContents();
    hardenContents(wc as never, APP);
    expect(wc.openHandler?.({ url: 'https://news.example/a' })).toEqual({ action: 'deny' });
    expect(fake.shell.openExternal).toHaveBeenCalledWith('https://news.example/a');
    fake.shell.openExternal.mockClear();
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'x']) {
      expect(wc.openHandler?.({ url })).toEqual({ action: 'deny' });
    }
    expect(fake.shell.openExternal).not.toHaveBeenCalled();
  });

  it('refuses to open anything but http(s) externally', async () => {
    expect(await openExternalSafely('https://example.com/')).toBe(true);
    expect(await openExternalSafely('http://example.com/')).toBe(true);
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'ms-settings:', 'not a url'])
      expect(await openExternalSafely(url)).toBe(false);
    expect(fake.shell.openExternal).toHaveBeenCalledTimes(2);
  });

  it('keeps sub-frames on the app: a frame navigating elsewhere is stopped, the app itself is not', () => {
    const wc = new fake.FakeWebContents();
    hardenContents(wc as never, APP);
    const frame = {
      isMainFrame: false,
      url: 'https://evil.example/phish',
      preventDefault: vi.fn(),
    };
    wc.emit('will-frame-navigate', frame);
    expect(frame.preventDefault).toHaveBeenCalled();
    expect(fake.shell.openExternal).not.toHaveBeenCalled();
    const own = { isMainFrame: false, url: 'app://macrobell/blank.html', preventDefault: vi.fn() };
    wc.emit('will-frame-navigate', own);
    expect(own.preventDefault).not.toHaveBeenCalled();
    // The main frame is will-navigate's job (which opens the link in the browser).
    const main = { isMainFrame: true, url: 'https://news.example/', preventDefault: vi.fn() };
    wc.emit('will-frame-navigate', main);
    expect(main.preventDefault).not.toHaveBeenCalled();
  });

  it('refuses webviews', () => {
    const wc = new fake.FakeWebContents();
    hardenContents(wc as never, APP);
    const wv = { preventDefault: vi.fn() };
    wc.emit('will-attach-webview', wv);
    expect(wv.preventDefault).toHaveBeenCalled();
  });

  it("recognises only the app's own page", () => {
    expect(isAppUrl(APP, APP)).toBe(true);
    expect(isAppUrl(`${APP}?x=1#/news`, APP)).toBe(true);
    expect(isAppUrl('app://macrobell/assets/index.js', APP)).toBe(true);
    expect(isAppUrl('app://evil/index.html', APP)).toBe(false);
    expect(isAppUrl('file:///app/out/renderer/index.html', APP)).toBe(false);
    expect(isAppUrl('https://macrobell/index.html', APP)).toBe(false);
    expect(isAppUrl('http://localhost:5173/news', DEV)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', DEV)).toBe(false);
    expect(isAppUrl('not a url', DEV)).toBe(false);
  });
});

describe('the session', () => {
  it('denies every permission request and check', () => {
    hardenSession(fake.session.defaultSession as never, false);
    for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-read']) {
      const cb = vi.fn();
      fake.session.defaultSession.permissionHandler?.({}, permission, cb);
      expect(cb).toHaveBeenCalledWith(false);
    }
    expect(fake.session.defaultSession.checkHandler?.()).toBe(false);
    expect(fake.session.defaultSession.headersListener).toBeNull();
  });

  it('adds the strict CSP to dev-server pages', () => {
    hardenSession(fake.session.defaultSession as never, true);
    const cb = vi.fn();
    fake.session.defaultSession.headersListener?.(
      { url: DEV, responseHeaders: { 'Content-Type': ['text/html'] } },
      cb,
    );
    const headers = cb.mock.calls[0]?.[0].responseHeaders as Record<string, string[]>;
    expect(headers['Content-Type']).toEqual(['text/html']);
    expect(headers['Content-Security-Policy']).toEqual([CSP]);
    expect(CSP).toContain("script-src 'self';");
    expect(CSP).toContain("object-src 'none'");
    expect(CSP).toContain("frame-ancestors 'none'");
  });
});
