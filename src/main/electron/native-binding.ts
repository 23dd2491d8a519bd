/**
 * Where the Electron-ABI build of better-sqlite3 lives (see scripts/electron-native.mjs):
 * inside the package's resources when packaged, in .electron-native/ in development.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export function nativeBindingPath(opts: {
  packaged: boolean;
  resourcesPath: string;
  appPath: string;
}): string | undefined {
  const candidate = opts.packaged
    ? join(opts.resourcesPath, 'native', 'better_sqlite3.node')
    : join(opts.appPath, '.electron-native', 'better_sqlite3.node');
  return existsSync(candidate) ? candidate : undefined;
}
