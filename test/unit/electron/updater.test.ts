/**
 * The update decision logic against a real update feed: electron-updater's own NSIS
 * updater reads a latest.yml served on loopback and downloads the installer it names
 * (checksum verified); only the final install (quitAndInstall) is stubbed.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, createServer, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  configureRequestOptions,
  configureRequestUrl,
  HttpExecutor,
  type DownloadOptions,
} from 'builder-util-runtime';
import { NsisUpdater } from 'electron-updater';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import { fakeService, eventDate } from './fake-service.js';
import type { UpdateNotice } from '../../../src/shared/ipc.js';
import {
  AUTO_RESTART_AFTER_MS,
  UpdateController,
  WATCHED_RELEASE_GUARD_MS,
} from '../../../src/main/electron/update-controller.js';
import {
  updateSignatureChecked,
  updatesEnabled,
  watchedReleaseDueWithin,
} from '../../../src/main/electron/updater.js';
import { handleRequest } from '../../../src/main/electron/ipc.js';
import { AppTray } from '../../../src/main/electron/tray.js';

/**
 * electron-updater's HTTP over Node's http (Electron's net module is not here): the same
 * download path as its ElectronHttpExecutor, so the sha512 check is the library's own.
 */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: object, callback: (response: unknown) => void): ClientRequest {
    return httpRequest(options as never, callback);
  }
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise((resolve, reject, onCancel) => {
      const requestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          callback: (error) => (error == null ? resolve(destination) : reject(error)),
          responseHandler: null,
        },
        0,
      );
    });
  }
}

const installer = Buffer.from('MZ pretend NSIS installer for 0.2.0 '.repeat(2000));
const sha512 = (b: Buffer) => createHash('sha512').update(b).digest('base64');

let dir: string;
let server: Server;
let feed: { version: string; body: Buffer; sha: string; notes: string };
const requests: string[] = [];

beforeEach(async () => {
  fake.resetFakeElectron();
  requests.length = 0;
  dir = mkdtempSync(join(tmpdir(), 'macrobell-updater-'));
  feed = {
    version: '0.2.0',
    body: installer,
    sha: sha512(installer),
    notes: '<h2>Faster alerts</h2><ul><li>Revisions &amp; reschedules</li></ul>',
  };
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    // latest.yml (Windows); electron-updater asks latest-linux.yml / latest-mac.yml elsewhere.
    if (/^\/latest(-linux|-mac)?\.yml/.test(req.url ?? '')) {
      res.setHeader('content-type', 'text/yaml');
      res.end(
        [
          `version: ${feed.version}`,
          'files:',
          `  - url: Macrobell-Setup-${feed.version}.exe`,
          `    sha512: ${feed.sha}`,
          `    size: ${feed.body.length}`,
          `path: Macrobell-Setup-${feed.version}.exe`,
          `sha512: ${feed.sha}`,
          `releaseName: Macrobell ${feed.version}`,
          `releaseNotes: '${feed.notes}'`,
          "releaseDate: '2026-11-20T10:00:00.000Z'",
          '',
        ].join('\n'),
      );
    } else if (req.url?.startsWith(`/Macrobell-Setup-${feed.version}.exe`)) {
      res.setHeader('content-length', feed.body.length);
      res.end(feed.body);
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // What electron-builder writes into the package (resources/app-update.yml).
  writeFileSync(
    join(dir, 'app-update.yml'),
    `provider: generic\nurl: ${url}\nupdaterCacheDirName: macrobell-updater\n`,
  );
});

afterEach(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

function nsisUpdater(version = '0.1.0') {
  const app = {
    version,
    name: 'Macrobell',
    isPackaged: true,
    appUpdateConfigPath: join(dir, 'app-update.yml'),
    userDataPath: join(dir, 'userData'),
    baseCachePath: join(dir, 'cache'),
    whenReady: async () => undefined,
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: () => undefined,
  };
  const u = new NsisUpdater(null, app);
  (u as unknown as { httpExecutor: HttpExecutor<ClientRequest> }).httpExecutor =
    new NodeHttpExecutor();
  u.disableDifferentialDownload = true;
  u.disableWebInstaller = true;
  u.logger = null;
  const quitAndInstall = vi.spyOn(u, 'quitAndInstall').mockImplementation(() => undefined);
  return { u, quitAndInstall };
}

function controller(
  opts: {
    version?: string;
    enabled?: () => { on: true } | { on: false; reason: string };
    due?: () => Promise<string | null>;
    inUse?: () => boolean;
    now?: () => number;
  } = {},
) {
  const { u, quitAndInstall } = nsisUpdater(opts.version);
  const notices: UpdateNotice[] = [];
  const logs: string[] = [];
  const errors: unknown[] = [];
  const c = new UpdateController({
    updater: () => u,
    enabled: opts.enabled ?? (() => ({ on: true })),
    watchedReleaseDueWithin: opts.due ?? (async () => null),
    windowInUse: opts.inUse ?? (() => false),
    onNotice: (n) => notices.push(n),
    log: (msg, fields) => {
      logs.push(msg);
      if (fields?.err) errors.push(fields.err);
    },
    ...(opts.now ? { now: opts.now } : {}),
  });
  return { c, u, quitAndInstall, notices, logs, errors };
}

describe('auto-update against a local feed', () => {
  it('finds a newer version, downloads it in the background and offers "Restart to update" with its notes', async () => {
    const { c, notices, quitAndInstall } = controller();
    await c.check();
    await vi.waitFor(() => expect(c.current().phase).toBe('ready'), { timeout: 10_000 });
    expect(notices[0]).toMatchObject({ phase: 'downloading', version: '0.2.0' });
    expect(c.current()).toEqual({
      phase: 'ready',
      version: '0.2.0',
      releaseName: 'Macrobell 0.2.0',
      releaseNotes: 'Faster alerts\n\n• Revisions & reschedules',
    });
    expect(requests.some((r) => r.startsWith('/Macrobell-Setup-0.2.0.exe'))).toBe(true);
    expect(quitAndInstall).not.toHaveBeenCalled(); // never without the user (or the policy)
    expect(c.restartNow()).toBe(true);
    expect(quitAndInstall).toHaveBeenCalledWith(false, true);
    expect(c.restartNow()).toBe(false); // once
  });

  it('stays quiet when the feed has the running version', async () => {
    const { c, notices } = controller({ version: '0.2.0' });
    await c.check();
    expect(requests.filter((r) => r.startsWith('/latest'))).toHaveLength(1);
    expect(requests.some((r) => r.endsWith('.exe'))).toBe(false);
    expect(notices).toEqual([]);
    expect(c.restartNow()).toBe(false);
  });

  it('never offers a download whose checksum does not match the feed', async () => {
    feed.body = Buffer.from('tampered');
    const { c, notices, logs, errors } = controller();
    await c.check();
    await vi.waitFor(() => expect(logs).toContain('update failed'), { timeout: 10_000 });
    expect(String(errors[0])).toMatch(/sha512 checksum mismatch/);
    expect(notices.at(-1)).toEqual({ phase: 'idle' });
    expect(notices.some((n) => n.phase === 'ready')).toBe(false);
  });

  it('does not even ask the feed when updates are off', async () => {
    const { c, logs } = controller({ enabled: () => ({ on: false, reason: 'demo mode' }) });
    await c.check();
    expect(requests).toEqual([]);
    expect(logs).toEqual(['update check skipped']);
  });
});

describe('restarting by itself', () => {
  async function ready(opts: Parameters<typeof controller>[0] = {}) {
    let t = Date.parse('2026-11-23T08:00:00Z');
    const ctl = controller({ ...opts, now: () => t });
    await ctl.c.check();
    await vi.waitFor(() => expect(ctl.c.current().phase).toBe('ready'), { timeout: 10_000 });
    return { ...ctl, advance: (ms: number) => (t += ms) };
  }

  it('never while a watched release is due within 15 minutes, then once it is past', async () => {
    let due: string | null = 'US Nonfarm Payrolls';
    const { c, quitAndInstall, advance } = await ready({
      due: async () => due,
    });
    expect(await c.maybeAutoRestart()).toEqual({ restart: false, reason: 'waiting for the user' });
    advance(AUTO_RESTART_AFTER_MS);
    const guarded = await c.maybeAutoRestart();
    expect(guarded).toEqual({
      restart: false,
      reason: 'a watched release is due soon: US Nonfarm Payrolls',
    });
    expect(quitAndInstall).not.toHaveBeenCalled();
    due = null;
    expect(await c.maybeAutoRestart()).toEqual({ restart: true });
    expect(quitAndInstall).toHaveBeenCalledWith(true, true);
  });

  it('never while the user has the window in front of them, nor when the calendar cannot be read', async () => {
    let inUse = true;
    let broken = false;
    const { c, quitAndInstall, advance } = await ready({
      inUse: () => inUse,
      due: async () => {
        if (broken) throw new Error('database closed');
        return null;
      },
    });
    advance(AUTO_RESTART_AFTER_MS + 1);
    expect(await c.maybeAutoRestart()).toEqual({ restart: false, reason: 'the window is in use' });
    inUse = false;
    broken = true;
    expect((await c.maybeAutoRestart()).restart).toBe(false);
    expect(quitAndInstall).not.toHaveBeenCalled();
  });

  it('applies a waiting update silently when the user quits', async () => {
    const { c, quitAndInstall } = await ready();
    expect(c.installOnQuit()).toBe(true);
    expect(quitAndInstall).toHaveBeenCalledWith(true, false);
  });
});

describe('when updates apply', () => {
  it('only in a packaged app on real data, unless disabled', () => {
    const signed = true;
    expect(updatesEnabled({ packaged: false, demo: false, env: {}, signed })).toEqual({
      on: false,
      reason: 'running from source',
    });
    expect(updatesEnabled({ packaged: true, demo: true, env: {}, signed })).toEqual({
      on: false,
      reason: 'demo mode',
    });
    expect(
      updatesEnabled({
        packaged: true,
        demo: false,
        env: { MACROBELL_DISABLE_UPDATES: '1' },
        signed,
      }).on,
    ).toBe(false);
    expect(updatesEnabled({ packaged: true, demo: false, env: {}, signed })).toEqual({ on: true });
  });

  it('refuses to auto-update an unsigned build unless the user allows it', () => {
    const unsigned = { packaged: true, demo: false, signed: false };
    expect(updatesEnabled({ ...unsigned, env: {} })).toEqual({
      on: false,
      reason: expect.stringMatching(/^unsigned build: .*MACROBELL_ALLOW_UNSIGNED_UPDATES=1/),
    });
    expect(updatesEnabled({ ...unsigned, env: { MACROBELL_ALLOW_UNSIGNED_UPDATES: '1' } })).toEqual(
      { on: true },
    );
    // What electron-builder writes: a publisher name only when the Windows build is signed.
    const yml = 'provider: github\nowner: o\nrepo: r\n';
    expect(updateSignatureChecked('win32', yml)).toBe(false);
    expect(updateSignatureChecked('win32', `${yml}publisherName:\n  - Macrobell Ltd\n`)).toBe(true);
    expect(updateSignatureChecked('win32', null)).toBe(false);
    expect(updateSignatureChecked('darwin', null)).toBe(true); // Squirrel.Mac requires a signature
    expect(updateSignatureChecked('linux', yml)).toBe(false); // AppImage/deb: no signature check
  });

  it('finds watched releases in the next 15 minutes from the calendar', async () => {
    const now = Date.parse('2026-11-23T13:20:00Z');
    const svc = fakeService({
      getAlertRules: async () => ({ watchedEventIds: ['ev-nfp'] }),
      listEventDates: async () => [
        eventDate({ eventId: 'ev-other', name: 'Trade Balance' }),
        eventDate({ eventId: 'ev-nfp', name: 'Nonfarm Payrolls', countryCode: 'US' }),
      ],
    });
    expect(await watchedReleaseDueWithin(svc, WATCHED_RELEASE_GUARD_MS, now)).toBe(
      'US Nonfarm Payrolls',
    );
    expect(svc.calls.find((c) => c.method === 'listEventDates')?.input).toEqual({
      from: '2026-11-23T13:20:00.000Z',
      to: '2026-11-23T13:35:00.000Z',
    });
    const none = fakeService({ getAlertRules: async () => ({ watchedEventIds: [] }) });
    expect(await watchedReleaseDueWithin(none, WATCHED_RELEASE_GUARD_MS, now)).toBeNull();
    expect(none.calls.some((c) => c.method === 'listEventDates')).toBe(false);
  });
});

describe('"Restart to update" in the tray and the window', () => {
  it('appears in the tray once an update is ready, and installs it', () => {
    const restartToUpdate = vi.fn();
    const actions = {
      openEvent: vi.fn(),
      pause: vi.fn(),
      open: vi.fn(),
      settings: vi.fn(),
      toggleStartAtLogin: vi.fn(),
      quit: vi.fn(),
      restartToUpdate,
    };
    const tray = new AppTray(fakeService(), '/assets', actions, () => false, 'linux');
    const icon = fake.Tray.instances[0] as fake.Tray;
    expect(icon.labels().some((l) => l.startsWith('Restart to update'))).toBe(false);
    tray.setUpdate({ phase: 'downloading', version: '0.2.0', percent: 40 });
    expect(icon.labels().some((l) => l.startsWith('Restart to update'))).toBe(false);
    tray.setUpdate({ phase: 'ready', version: '0.2.0', releaseName: null, releaseNotes: null });
    expect(icon.labels()[0]).toBe('Restart to update (version 0.2.0)');
    icon.item('Restart to update (version 0.2.0)').click?.({ checked: false });
    expect(restartToUpdate).toHaveBeenCalledTimes(1);
    tray.destroy();
  });

  it('answers the window\'s "Restart to update" only when an update is ready', async () => {
    const svc = fakeService();
    expect(await handleRequest(svc, 'installUpdate', undefined, {})).toEqual({
      ok: false,
      error: { error: 'no_update', message: 'No update is ready to install.' },
    });
    const install = vi.fn(() => true);
    expect(
      await handleRequest(svc, 'installUpdate', undefined, { onInstallUpdate: install }),
    ).toEqual({ ok: true, value: null });
    expect(install).toHaveBeenCalledTimes(1);
    expect(svc.calls).toEqual([]); // never reaches the core
  });
});
