import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import { nativeBindingPath } from '../../../src/main/electron/native-binding.js';
import {
  autostartFile,
  getStartAtLogin,
  setStartAtLogin,
} from '../../../src/main/electron/login-item.js';

let dir: string;
beforeEach(() => {
  fake.resetFakeElectron();
  dir = mkdtempSync(join(tmpdir(), 'macrobell-electron-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function touch(...parts: string[]): string {
  const file = join(dir, ...parts);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, 'not really a .node');
  return file;
}

describe('the Electron build of better-sqlite3', () => {
  it('is found in resources/native when packaged', () => {
    const resources = join(dir, 'resources');
    expect(
      nativeBindingPath({ packaged: true, resourcesPath: resources, appPath: dir }),
    ).toBeUndefined();
    const file = touch('resources', 'native', 'better_sqlite3.node');
    expect(nativeBindingPath({ packaged: true, resourcesPath: resources, appPath: dir })).toBe(
      file,
    );
  });

  it('is found in .electron-native/ of the project in development', () => {
    touch('resources', 'native', 'better_sqlite3.node'); // ignored when not packaged
    expect(
      nativeBindingPath({ packaged: false, resourcesPath: join(dir, 'resources'), appPath: dir }),
    ).toBeUndefined();
    const file = touch('.electron-native', 'better_sqlite3.node');
    expect(
      nativeBindingPath({ packaged: false, resourcesPath: join(dir, 'resources'), appPath: dir }),
    ).toBe(file);
  });
});

describe('start at login', () => {
  it('writes and removes an XDG autostart entry on Linux', () => {
    const env = {
      platform: 'linux' as const,
      configDir: dir,
      command: '/opt/Mac robell/macrobell',
    };
    expect(getStartAtLogin(env)).toBe(false);
    setStartAtLogin(true, env);
    expect(getStartAtLogin(env)).toBe(true);
    const entry = readFileSync(autostartFile(env), 'utf8');
    expect(entry).toContain('[Desktop Entry]');
    expect(entry).toContain('Exec="/opt/Mac robell/macrobell"');
    setStartAtLogin(false, env);
    expect(getStartAtLogin(env)).toBe(false);
    expect(fake.app.setLoginItemSettings).not.toHaveBeenCalled();
  });

  it("uses Electron's login items on macOS and Windows", () => {
    const env = { platform: 'darwin' as const, configDir: dir, command: '/x' };
    setStartAtLogin(true, env);
    expect(fake.app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true });
    expect(getStartAtLogin(env)).toBe(true);
  });
});
