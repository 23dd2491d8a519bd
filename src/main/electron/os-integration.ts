/** Per-OS details of the shell: macrobell:// links and the missing-tray fallback. */
import { app, dialog } from 'electron';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEEP_LINK_SCHEME } from './deep-link.js';
import { NO_TRAY_MESSAGE, statusNotifierHost, type TrayHostAnswer } from './tray-host.js';

/**
 * Register as the macrobell:// handler (packaged apps only: from source it would point the
 * OS at the bare Electron binary) and listen for links macOS delivers by event.
 */
export function registerDeepLinks(open: (link: string) => void, register: boolean): void {
  if (register && !app.isDefaultProtocolClient(DEEP_LINK_SCHEME))
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  app.on('open-url', (event, url) => {
    event.preventDefault();
    open(url);
  });
}

/**
 * Linux without a StatusNotifier host: the tray icon is invisible, so the window must stay
 * reachable. Resolves true in that case, and explains it once (remembered in userData).
 */
export async function checkTrayHost(
  dataDir: string,
  ask: () => Promise<TrayHostAnswer> = () => statusNotifierHost(),
): Promise<boolean> {
  if ((await ask()) !== 'absent') return false;
  const marker = join(dataDir, 'no-tray-notice-shown');
  if (!existsSync(marker)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(marker, new Date().toISOString());
    void dialog.showMessageBox({ type: 'info', title: 'Macrobell', message: NO_TRAY_MESSAGE });
  }
  return true;
}
