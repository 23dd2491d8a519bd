/** Files the shell loads: the built renderer, the preload, the tray icons. */
import { join } from 'node:path';
import type { TrayState } from './tray-menu.js';

export function rendererFile(appPath: string): string {
  return join(appPath, 'out', 'renderer', 'index.html');
}

export function preloadFile(appPath: string): string {
  return join(appPath, 'out', 'preload', 'index.cjs');
}

/**
 * macOS uses template images (black + alpha, tinted by the system); Linux panels are 22 px
 * tall; Windows takes the 16 px image (nativeImage picks its @2x sibling on HiDPI).
 */
export function trayIconFile(
  assetsDir: string,
  state: TrayState,
  platform: NodeJS.Platform,
): string {
  if (platform === 'darwin')
    return join(
      assetsDir,
      'tray',
      state === 'normal' ? 'trayTemplate.png' : `tray-${state}Template.png`,
    );
  if (platform === 'linux') return join(assetsDir, 'tray', `tray-${state}-22.png`);
  return join(assetsDir, 'tray', `tray-${state}.png`);
}
