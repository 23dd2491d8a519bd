/** Serves the built renderer: no directory traversal, right MIME types, strict headers. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { CSP } from '../../shared/csp.js';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wav': 'audio/wav',
  '.map': 'application/json; charset=utf-8',
};

export const SECURITY_HEADERS = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

export function assertBuilt(staticDir: string): void {
  if (!existsSync(join(staticDir, 'index.html'))) {
    throw new Error(
      `The web UI is not built (${join(staticDir, 'index.html')} is missing). Run \`npm run build:web\` first.`,
    );
  }
}

export function serveStatic(staticDir: string, pathname: string, res: ServerResponse): boolean {
  const root = resolve(staticDir);
  let rel: string;
  try {
    rel = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
  } catch {
    return false;
  }
  if (rel.includes('\0')) return false;
  const file = resolve(root, normalize(`.${rel}`));
  if (file !== root && !file.startsWith(root + sep)) return false;
  if (!existsSync(file) || !statSync(file).isFile()) return false;
  const body = readFileSync(file);
  const immutable = file.includes(`${sep}assets${sep}`);
  res.writeHead(200, {
    'content-type': MIME[extname(file)] ?? 'application/octet-stream',
    'content-length': body.length,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...SECURITY_HEADERS,
  });
  res.end(body);
  return true;
}
