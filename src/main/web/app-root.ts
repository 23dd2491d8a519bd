import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The app's folder (the one with its package.json): the web host runs from its sources
 * (src/main/web) under tsx in tests and from its bundle (out/web-host) under `npm run web`,
 * so paths to the built UI and package.json are found from there, not written relative.
 */
export function appRoot(from: string = import.meta.dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
