/**
 * The built renderer's files, as both hosts serve them (the web dashboard over HTTP, the
 * Electron window over app://): one path check against directory traversal and one MIME
 * table (mime-types), so the two cannot disagree about a file.
 */
import { extname, resolve, sep } from 'node:path';
import { contentType } from 'mime-types';
import { CSP } from '../../shared/csp.js';

/** Headers on every response of the renderer's files. */
export const RENDERER_HEADERS = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
} as const;

/**
 * The file under `rootDir` a URL path names ('/' is index.html), or null when the path is
 * malformed (bad %-escape, NUL) or leads outside the folder.
 */
export function staticFileFor(rootDir: string, pathname: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  const root = resolve(rootDir);
  const file = resolve(root, `.${path === '/' || path === '' ? '/index.html' : path}`);
  return file.startsWith(root + sep) ? file : null;
}

/** The Content-Type of a file by its extension; unknown kinds are plain bytes. */
export function contentTypeOf(file: string): string {
  return contentType(extname(file).toLowerCase()) || 'application/octet-stream';
}
