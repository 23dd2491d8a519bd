/**
 * The built renderer's files (GET and HEAD, any path outside /api/); a path without a file
 * extension is a client-side route and gets the app.
 */
import { WEB_API_PREFIX } from '../../../shared/ipc.js';
import type { WebRequest, WebRoute } from '../context.js';
import { webErrors } from '../errors.js';
import { serveStatic } from '../static.js';

function serveApp({ ctx, res, url }: WebRequest): void {
  // The raw path: staticFileFor decodes it once and checks it stays inside the folder.
  if (serveStatic(ctx.staticDir, url.pathname, res)) return;
  if (!url.pathname.includes('.') && serveStatic(ctx.staticDir, '/', res)) return;
  throw webErrors.notFound();
}

/** Every path but the API's (`\x2f` is '/': the route pattern splits on a literal one). */
const APP_PATH = `/:path((?!${WEB_API_PREFIX.slice(1).replaceAll('/', '\\x2f')}).*)`;

export const staticRoutes: WebRoute[] = [
  { method: 'GET', path: APP_PATH, handle: serveApp },
  { method: 'HEAD', path: APP_PATH, handle: serveApp },
];
