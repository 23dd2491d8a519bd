/**
 * Linux: is there a StatusNotifier host to show the tray icon? GNOME without the
 * AppIndicator extension has none, and the icon is silently invisible — then the window
 * must stay reachable (minimise instead of hide) and the user is told once.
 */
import { execFile } from 'node:child_process';

/** gdbus's answer to Get(IsStatusNotifierHostRegistered): "(<true>,)". */
export function parseHostRegistered(stdout: string): boolean {
  return /<\s*true\s*>/.test(stdout);
}

export type TrayHostAnswer = 'present' | 'absent' | 'unknown';

/** Asks the session bus; 'unknown' when it cannot ask (gdbus missing), never throws. */
export function statusNotifierHost(
  platform: NodeJS.Platform = process.platform,
  run: typeof execFile = execFile,
): Promise<TrayHostAnswer> {
  if (platform !== 'linux') return Promise.resolve('present');
  return new Promise((resolve) => {
    run(
      'gdbus',
      [
        'call',
        '--session',
        '--dest',
        'org.kde.StatusNotifierWatcher',
        '--object-path',
        '/StatusNotifierWatcher',
        '--method',
        'org.freedesktop.DBus.Properties.Get',
        'org.kde.StatusNotifierWatcher',
        'IsStatusNotifierHostRegistered',
      ],
      { timeout: 3_000 },
      (err, stdout) => {
        if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') return resolve('unknown');
        // No watcher on the bus (the call fails) means no host either.
        resolve(!err && parseHostRegistered(String(stdout)) ? 'present' : 'absent');
      },
    );
  });
}

export const NO_TRAY_MESSAGE =
  'Your desktop does not show tray icons (on GNOME, install the "AppIndicator and KStatusNotifierItem Support" extension). Until it does, Macrobell keeps its window in the taskbar: closing the window minimises it, and File → Quit (Ctrl+Q) quits.';
