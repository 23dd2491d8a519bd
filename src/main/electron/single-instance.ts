/** One Macrobell per user: a second launch focuses the running one and exits. */
import { app } from 'electron';

/** Returns false (and quits) when another instance holds the lock. */
export function acquireSingleInstance(onSecondInstance: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', () => onSecondInstance());
  return true;
}
