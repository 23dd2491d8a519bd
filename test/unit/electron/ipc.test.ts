import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import { fakeService, status } from './fake-service.js';
import { handleRequest, registerIpc, senderAllowed } from '../../../src/main/electron/ipc.js';
import { IPC_REQUEST_CHANNEL, ipcPushChannel } from '../../../src/shared/ipc.js';
import { DEFAULT_SETTINGS } from '../../../src/shared/domain.js';

const APP = 'file:///app/out/renderer/index.html';
type Handler = (event: unknown, method?: unknown, input?: unknown) => Promise<unknown>;

beforeEach(() => fake.resetFakeElectron());

function setup(svc = fakeService(), hooks = {}) {
  const win = new fake.BrowserWindow({});
  const off = registerIpc(svc, () => win as never, APP, hooks);
  const handler = fake.ipcMain.handlers.get(IPC_REQUEST_CHANNEL) as Handler;
  const from = (url: string, id = win.webContents.id) => ({
    sender: { id },
    senderFrame: { url },
  });
  return { svc, win, off, handler, from };
}

describe('IPC sender check', () => {
  it('accepts only our window showing our page', () => {
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
    expect(senderAllowed({ ...ok, senderFrame: null } as never, win as never, APP)).toBe(false);
    expect(senderAllowed({ ...ok, sender: { id: -1 } } as never, win as never, APP)).toBe(false);
    expect(senderAllowed(ok as never, null, APP)).toBe(false);
  });

  it('rejects a foreign frame without calling the service', async () => {
    const { svc, handler, from } = setup();
    expect(await handler(from('https://x.example/'), 'getStatus')).toEqual({
      ok: false,
      error: { error: 'forbidden', message: 'Request from an unknown sender.' },
    });
    expect(await handler(from(APP, 9999), 'getStatus')).toMatchObject({ ok: false });
    expect(svc.calls).toEqual([]);
  });
});

describe('IPC requests', () => {
  it('forwards a valid request to the service and answers its value', async () => {
    const { svc, handler, from } = setup();
    expect(await handler(from(APP), 'searchPosts', { query: 'cpi', limit: 5 })).toEqual({
      ok: true,
      value: { called: 'searchPosts', input: { query: 'cpi', limit: 5 } },
    });
    expect(await handler(from(APP), 'getStatus')).toEqual({ ok: true, value: status() });
    expect(svc.calls.map((c) => c.method)).toEqual(['searchPosts', 'getStatus']);
  });

  it('answers invalid input with the validation message, not a crash', async () => {
    const { svc, handler, from } = setup();
    const bad = (await handler(from(APP), 'searchPosts', { query: '' })) as {
      ok: boolean;
      error: { error: string; message: string };
    };
    expect(bad.ok).toBe(false);
    expect(bad.error.error).toBe('invalid_request');
    // What is wrong, then where (z.prettifyError): "✖ Too small: … → at query".
    expect(bad.error.message).toMatch(
      /^Invalid request to searchPosts: ✖ Too small\b.* → at query$/,
    );
    expect(await handler(from(APP), 'pauseAlerts', { until: 'soon' })).toMatchObject({
      ok: false,
      error: { error: 'invalid_request' },
    });
    expect(await handler(from(APP), 'deleteEverything', {})).toEqual({
      ok: false,
      error: { error: 'unknown_method', message: 'Unknown method deleteEverything' },
    });
    expect(await handler(from(APP), { toString: null })).toMatchObject({ ok: false });
    expect(svc.calls).toEqual([]);
  });

  it('returns service errors as a code and message, never throwing across IPC', async () => {
    const svc = fakeService({
      getPost: async () => {
        throw Object.assign(new Error('Not in the cache'), { code: 'not_found' });
      },
      listCategories: async () => {
        throw 'plain string';
      },
    });
    expect(await handleRequest(svc, 'getPost', { id: 'x', culture: 'en-US' })).toEqual({
      ok: false,
      error: { error: 'not_found', message: 'Not in the cache' },
    });
    expect(await handleRequest(svc, 'listCategories', undefined)).toEqual({
      ok: false,
      error: { error: 'error', message: 'plain string' },
    });
  });

  it('opens only http(s) links in the browser, without involving the service', async () => {
    const { svc, handler, from } = setup();
    expect(
      await handler(from(APP), 'openExternal', { url: 'https://www.fxstreet.com/news/x' }),
    ).toEqual({ ok: true, value: null });
    expect(fake.shell.openExternal).toHaveBeenCalledWith('https://www.fxstreet.com/news/x');
    expect(await handler(from(APP), 'openExternal', { url: 'file:///etc/passwd' })).toMatchObject({
      ok: false,
      error: { error: 'invalid_request' },
    });
    expect(fake.shell.openExternal).toHaveBeenCalledTimes(1);
    expect(svc.calls).toEqual([]);
  });

  it('tells the shell about saved settings', async () => {
    const saved = { ...DEFAULT_SETTINGS, startAtLogin: true };
    const onSettingsSaved = vi.fn();
    const { handler, from } = setup(fakeService({ updateSettings: async () => saved }), {
      onSettingsSaved,
    });
    expect(await handler(from(APP), 'updateSettings', { startAtLogin: true })).toEqual({
      ok: true,
      value: saved,
    });
    expect(onSettingsSaved).toHaveBeenCalledWith(saved);
  });
});

describe('IPC pushes', () => {
  it('sends each service push to the window on its own channel, and stops on unregister', () => {
    const { svc, win, off } = setup();
    svc.emit('status', status({ unreadAlerts: 3 }));
    svc.emit('navigate', { type: 'alerts' });
    expect(win.webContents.sent).toEqual([
      [ipcPushChannel('status'), status({ unreadAlerts: 3 })],
      [ipcPushChannel('navigate'), { type: 'alerts' }],
    ]);
    off();
    expect(fake.ipcMain.handlers.has(IPC_REQUEST_CHANNEL)).toBe(false);
    svc.emit('status', status());
    expect(win.webContents.sent).toHaveLength(2);
  });
});
