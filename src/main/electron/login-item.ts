/**
 * "Start at login". Electron's login-item API covers macOS and Windows only; on Linux
 * the freedesktop way is an autostart .desktop file in ~/.config/autostart. A start at
 * login opens in the tray only (HIDDEN_FLAG), not with the window in the user's face.
 */
import { app } from 'electron';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface LoginItemEnv {
  platform: NodeJS.Platform;
  /** XDG_CONFIG_HOME or ~/.config. */
  configDir: string;
  /** What to launch: the AppImage when packaged as one, else the executable. */
  command: string;
}

export const HIDDEN_FLAG = '--hidden';

/** Was this process started at login (so it should stay in the tray)? */
export function startedAtLogin(argv: readonly string[] = process.argv): boolean {
  if (argv.includes(HIDDEN_FLAG)) return true;
  return process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true;
}

export function defaultLoginItemEnv(): LoginItemEnv {
  return {
    platform: process.platform,
    configDir: process.env.XDG_CONFIG_HOME || join(homedir(), '.config'),
    command: process.env.APPIMAGE || process.execPath,
  };
}

export function autostartFile(env: LoginItemEnv): string {
  return join(env.configDir, 'autostart', 'macrobell.desktop');
}

export function getStartAtLogin(env: LoginItemEnv = defaultLoginItemEnv()): boolean {
  if (env.platform === 'linux') return existsSync(autostartFile(env));
  return app.getLoginItemSettings().openAtLogin;
}

export function setStartAtLogin(on: boolean, env: LoginItemEnv = defaultLoginItemEnv()): void {
  if (env.platform !== 'linux') {
    // Windows passes args to the Run entry; macOS tells the app through wasOpenedAtLogin.
    app.setLoginItemSettings(
      env.platform === 'win32' ? { openAtLogin: on, args: [HIDDEN_FLAG] } : { openAtLogin: on },
    );
    return;
  }
  const file = autostartFile(env);
  if (!on) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(dirname(file), { recursive: true });
  // Exec takes a quoted path so folders with spaces work (Desktop Entry spec).
  const exec = `"${env.command.replace(/(["`$\\])/g, '\\$1')}"`;
  writeFileSync(
    file,
    [
      '[Desktop Entry]',
      'Type=Application',
      'Name=Macrobell',
      'Comment=Economic calendar and market news with native alerts',
      `Exec=${exec} ${HIDDEN_FLAG}`,
      'Icon=macrobell',
      'Terminal=false',
      'X-GNOME-Autostart-enabled=true',
      '',
    ].join('\n'),
  );
}
