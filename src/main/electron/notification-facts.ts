/**
 * Gathers what each OS lets us know about notifications, for the core's checks
 * (src/main/notify/os-checks.ts). Every probe answers "unknown" rather than throwing.
 */
import { Notification, shell } from 'electron';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  APP_USER_MODEL_ID,
  type LinuxFacts,
  type MacFacts,
  type OsNotificationFacts,
  type WindowsFacts,
} from '../notify/os-checks.js';

export interface FactsEnv {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
  /** The AppUserModelID the shell set at start (Windows). */
  appUserModelId: string | null;
}

export function defaultFactsEnv(appUserModelId: string | null): FactsEnv {
  return {
    platform: process.platform,
    env: process.env,
    home: homedir(),
    appUserModelId,
  };
}

export async function gatherNotificationFacts(e: FactsEnv): Promise<OsNotificationFacts> {
  const supported = Notification.isSupported();
  if (e.platform === 'win32') return windowsFacts(e, supported);
  if (e.platform === 'darwin') return macFacts(e, supported);
  if (e.platform === 'linux') return linuxFacts(e, supported);
  return { platform: 'other', supported };
}

/** The installer's Start-menu shortcut (per user, else per machine) and the id it carries. */
function windowsFacts(e: FactsEnv, supported: boolean): WindowsFacts {
  const programs = 'Microsoft/Windows/Start Menu/Programs/Macrobell.lnk';
  const places = [e.env.APPDATA, e.env.ProgramData].filter((p): p is string => Boolean(p));
  let shortcut: WindowsFacts['shortcut'] = places.length ? 'missing' : 'unknown';
  for (const place of places) {
    try {
      const link = shell.readShortcutLink(join(place, programs));
      shortcut = link.appUserModelId === APP_USER_MODEL_ID ? 'ok' : 'wrong-id';
      if (shortcut === 'ok') break;
    } catch {
      // no shortcut there
    }
  }
  return { platform: 'win32', supported, appUserModelId: e.appUserModelId, shortcut };
}

/**
 * Focus: macOS 12+ records active Focus assertions in this file (no public API says more).
 * The notification permission is not readable by an Electron app: it stays "unknown".
 */
function macFacts(e: FactsEnv, supported: boolean): MacFacts {
  let focus: MacFacts['focus'] = 'unknown';
  try {
    const file = join(e.home, 'Library/DoNotDisturb/DB/Assertions.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as {
      data?: { storeAssertionRecords?: unknown[] }[];
    };
    focus = json.data?.some((d) => (d.storeAssertionRecords?.length ?? 0) > 0) ? 'on' : 'off';
  } catch {
    // unreadable (no Full Disk Access, older macOS): unknown
  }
  return { platform: 'darwin', supported, permission: 'unknown', focus };
}

async function linuxFacts(e: FactsEnv, supported: boolean): Promise<LinuxFacts> {
  const dataHome = e.env.XDG_DATA_HOME || join(e.home, '.local/share');
  const dataDirs = (e.env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').split(':');
  const desktopEntry = [dataHome, ...dataDirs].some(
    (dir) => dir && existsSync(join(dir, 'applications', 'macrobell.desktop')),
  );
  return { platform: 'linux', supported, daemon: await notificationDaemon(e.env), desktopEntry };
}

const NOTIFICATIONS = 'org.freedesktop.Notifications';

/** Is org.freedesktop.Notifications owned on the session bus, or can D-Bus start it? */
async function notificationDaemon(env: NodeJS.ProcessEnv): Promise<LinuxFacts['daemon']> {
  const owned = await busCall(env, 'NameHasOwner', [NOTIFICATIONS]);
  if (owned === null) return 'unknown';
  if (/\btrue\b/.test(owned)) return 'running';
  const activatable = await busCall(env, 'ListActivatableNames', []);
  if (activatable === null) return 'unknown';
  return activatable.includes(`'${NOTIFICATIONS}'`) ? 'activatable' : 'absent';
}

/** gdbus's printed answer, or null when the bus cannot be asked (no gdbus, no session). */
function busCall(env: NodeJS.ProcessEnv, method: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      'gdbus',
      [
        'call',
        '--session',
        '--dest',
        'org.freedesktop.DBus',
        '--object-path',
        '/org/freedesktop/DBus',
        '--method',
        `org.freedesktop.DBus.${method}`,
        ...args,
      ],
      { timeout: 3_000, env },
      (err, stdout) => resolve(err ? null : String(stdout)),
    );
  });
}
