/**
 * One Macrobell per user: a second launch focuses the running one and exits, handing over
 * its command line (a macrobell:// link on Windows and Linux).
 */
import { app } from 'electron';

/** Returns false (and quits) when another instance holds the lock. */
export function acquireSingleInstance(onSecondInstance: (argv: string[]) => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', (_event, argv: string[]) => onSecondInstance(argv ?? []));
  return true;
}
