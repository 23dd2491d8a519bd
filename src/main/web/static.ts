/** Serves the built renderer: no directory traversal, right MIME types, strict headers. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join, sep } from 'node:path';
import { contentTypeOf, RENDERER_HEADERS, staticFileFor } from '../../node/http/static-files.js';

/** The renderer's headers, plus framing denied (a browser tab can be framed; app:// cannot). */
export const SECURITY_HEADERS = { ...RENDERER_HEADERS, 'x-frame-options': 'DENY' };

export function assertBuilt(staticDir: string): void {
  if (!existsSync(join(staticDir, 'index.html'))) {
    throw new Error(
      `The web UI is not built (${join(staticDir, 'index.html')} is missing). Run \`npm run build:web\` first.`,
    );
  }
}

export function serveStatic(staticDir: string, pathname: string, res: ServerResponse): boolean {
  const file = staticFileFor(staticDir, pathname);
  if (!file || !existsSync(file) || !statSync(file).isFile()) return false;
  const body = readFileSync(file);
  const immutable = file.includes(`${sep}assets${sep}`);
  res.writeHead(200, {
    'content-type': contentTypeOf(file),
    'content-length': body.length,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...SECURITY_HEADERS,
  });
  res.end(body);
  return true;
}
