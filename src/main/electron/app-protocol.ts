/**
 * The renderer is served from app://macrobell/ instead of file:// (Electron's security
 * checklist): a standard, secure origin of its own, files only from the built renderer
 * folder, and the CSP header on every response. The handler is plain (Request → Response)
 * so it is tested without Electron; security.ts registers it.
 */
import { readFile, stat } from 'node:fs/promises';
import { contentTypeOf, RENDERER_HEADERS, staticFileFor } from '../../node/http/static-files.js';

export const APP_SCHEME = 'app';
export const APP_HOST = 'macrobell';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** Headers on every app:// response, errors included. */
export const APP_HEADERS = RENDERER_HEADERS;

const answer = (status: number, body: BodyInit | null, type = 'text/plain; charset=utf-8') =>
  new Response(body, { status, headers: { ...APP_HEADERS, 'content-type': type } });

/** The file under `rootDir` an app:// URL names, or null when it is outside it or malformed. */
export function appFileFor(url: string, rootDir: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
  return staticFileFor(rootDir, u.pathname);
}

/** Answer one app:// request from the built renderer in `rootDir`. */
export async function handleAppRequest(
  request: Pick<Request, 'url' | 'method'>,
  rootDir: string,
): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return answer(405, 'Method not allowed');
  const file = appFileFor(request.url, rootDir);
  if (!file) return answer(404, 'Not found');
  try {
    if (!(await stat(file)).isFile()) return answer(404, 'Not found');
    const body = request.method === 'HEAD' ? null : await readFile(file);
    return answer(200, body, contentTypeOf(file));
  } catch {
    return answer(404, 'Not found');
  }
}
