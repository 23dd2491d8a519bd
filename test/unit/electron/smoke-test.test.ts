// @clock any-day — it reads the demo schedule of the day it runs; CI runs it on the clock matrix
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import { fakeService } from './fake-service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { runSmokeTest } from '../../../src/main/electron/smoke-run.js';
import {
  parseSmokeArgs,
  runSmokeChecks,
  type SmokeProbes,
} from '../../../src/main/electron/smoke-test.js';

const loginItemEnv = { platform: 'darwin' as const, configDir: '/nonexistent', command: '/x' };
let out: string;

beforeEach(() => {
  fake.resetFakeElectron();
  out = mkdtempSync(join(tmpdir(), 'macrobell-smoke-test-'));
});
afterEach(() => rmSync(out, { recursive: true, force: true }));

const passing = (): SmokeProbes => ({
  calendar: async () => ({ rows: 12 }),
  sqlite: async () => ({ sqlite: '3.50.0' }),
  keychain: async () => ({}),
  tray: async () => ({}),
  notification: async () => ({}),
});

describe('the --smoke-test flag', () => {
  it('is recognised with or without an output file', () => {
    expect(parseSmokeArgs(['/opt/Macrobell/macrobell'])).toBeNull();
    expect(parseSmokeArgs(['/x', '--smoke-test'])).toEqual({ outputFile: null });
    expect(parseSmokeArgs(['/x', '--smoke-test', '--smoke-output=/tmp/r.json'])).toEqual({
      outputFile: '/tmp/r.json',
    });
  });
});

describe('the smoke checks', () => {
  it('pass when every probe answers', async () => {
    const r = await runSmokeChecks(async () => passing(), { versions: { electron: '41.0.0' } });
    expect(r).toMatchObject({ ok: true, versions: { electron: '41.0.0' } });
    expect(r.reason).toBeUndefined();
    expect(Object.keys(r.checks).sort()).toEqual([
      'calendar',
      'keychain',
      'notification',
      'sqlite',
      'tray',
    ]);
    expect(r.checks.calendar).toEqual({ ok: true, rows: 12 });
  });

  it('fail with the reason of the failing probe, still running the others', async () => {
    const r = await runSmokeChecks(async () => ({
      ...passing(),
      keychain: async () => {
        throw new Error('The OS keychain is not available: no D-Bus');
      },
    }));
    expect(r.ok).toBe(false);
    expect(r.reason).toBe('keychain: The OS keychain is not available: no D-Bus');
    expect(r.checks.tray).toEqual({ ok: true });
  });

  it('fail when the app does not start', async () => {
    const r = await runSmokeChecks(async () => {
      throw new Error('SQLITE_CANTOPEN');
    });
    expect(r).toMatchObject({ ok: false, reason: 'the app did not start: SQLITE_CANTOPEN' });
  });

  it('give up at the deadline, naming what never answered', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const hung = runSmokeChecks(
        async () => ({ ...passing(), calendar: () => new Promise(() => undefined) }),
        { timeoutMs: 60_000 },
      );
      await vi.advanceTimersByTimeAsync(60_000);
      const r = await hung;
      expect(r).toMatchObject({ ok: false, reason: 'timed out after 60 s waiting for calendar' });
      expect(r.checks.sqlite?.ok).toBe(true);

      const neverStarts = runSmokeChecks(() => new Promise(() => undefined), { timeoutMs: 60_000 });
      await vi.advanceTimersByTimeAsync(60_000);
      expect((await neverStarts).reason).toBe('timed out after 60 s waiting for start');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('macrobell --smoke-test on the shell', () => {
  async function smoke(
    opts: {
      rows?: number;
      bridge?: boolean;
      keychain?:
        MemorySecretStore | { available(): Promise<{ ok: boolean; error: string | null }> };
    } = {},
  ) {
    const modes: unknown[] = [];
    const svc = fakeService();
    // The renderer draws once the page has loaded.
    const poll = setInterval(() => {
      const win = fake.BrowserWindow.instances[0];
      if (!win) return;
      win.webContents.pageAnswer = () => ({ bridge: opts.bridge ?? true, rows: opts.rows ?? 24 });
      win.webContents.finishLoad();
      clearInterval(poll);
    }, 5);
    const file = join(out, 'report.json');
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const result = await runSmokeTest(
        { outputFile: file },
        {
          loginItemEnv,
          createService: async (o) => {
            modes.push(o);
            return svc;
          },
        },
        {
          timeoutMs: opts.rows === 0 ? 1_000 : 20_000,
          keychain: opts.keychain ?? new MemorySecretStore(),
        },
      );
      const lines = stdout.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith('{'));
      return { ...result, lines, file, modes, svc };
    } finally {
      clearInterval(poll);
      stdout.mockRestore();
    }
  }

  it('runs the real shell on demo data in a throw-away folder, prints one JSON line, exits 0', async () => {
    const r = await smoke();
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(1);
    const printed = JSON.parse(r.lines[0]!) as Record<string, unknown>;
    expect(printed).toEqual(JSON.parse(readFileSync(r.file, 'utf8')));
    expect(printed).toMatchObject({
      ok: true,
      checks: { calendar: { ok: true, rows: 24 }, tray: { ok: true }, notification: { ok: true } },
      versions: { app: '0.1.0', node: process.versions.node, abi: process.versions.modules },
    });
    // better-sqlite3 really opened (Node's build here; the packaged app ships Electron's).
    expect(printed.checks).toMatchObject({
      sqlite: { ok: true, sqlite: expect.stringMatching(/^3\./) },
    });
    const dataDir = (r.modes[0] as { dataDir: string; mode: string }).dataDir;
    expect(r.modes[0]).toMatchObject({ mode: 'demo' });
    expect(dataDir).toContain('macrobell-smoke-');
    expect(fake.app.setPath).toHaveBeenCalledWith('userData', dataDir);
    expect(existsSync(dataDir)).toBe(false); // cleaned up
    expect(r.svc.stopped).toBe(1);
    expect(fake.Notification.shown).toEqual([]); // created, never shown to anyone
  });

  it('exits non-zero with the reason when the keychain does not answer', async () => {
    const r = await smoke({
      keychain: {
        available: async () => ({
          ok: false,
          error: 'The OS keychain is not available: no Secret Service',
        }),
      },
    });
    expect(r.code).toBe(1);
    expect(r.report.reason).toBe('keychain: The OS keychain is not available: no Secret Service');
  });

  it('fails when the page has no preload bridge, or never draws the calendar', async () => {
    expect((await smoke({ bridge: false })).report.reason).toBe(
      'calendar: the preload bridge (window.macrobell) is missing',
    );
    fake.resetFakeElectron();
    const r = await smoke({ rows: 0 });
    expect(r.code).toBe(1);
    expect(r.report.reason).toBe('timed out after 1 s waiting for calendar');
  });

  it('fails in a package without the Electron build of SQLite', async () => {
    fake.app.isPackaged = true;
    const resources = Object.getOwnPropertyDescriptor(process, 'resourcesPath');
    Object.defineProperty(process, 'resourcesPath', { value: out, configurable: true });
    const r = await smoke().finally(() => {
      if (resources) Object.defineProperty(process, 'resourcesPath', resources);
      else delete (process as { resourcesPath?: string }).resourcesPath;
    });
    expect(r.report.reason).toBe(
      'sqlite: the Electron build of better-sqlite3 is missing from the package',
    );
  });

  it('fails where the desktop has no notifications', async () => {
    fake.Notification.supported = false;
    expect((await smoke()).report.reason).toMatch(
      /^notification: this desktop has no notification service/,
    );
  });
});
