/**
 * First visit: the one-time code in the printed URL (`?token=`, on any page path) is traded
 * for a session cookie and a page key (in the redirect's fragment, which no request
 * carries), and the code leaves the address bar; the history keeps a spent code.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WEB_API_PREFIX } from '../../../shared/ipc.js';
import type { WebContext } from '../context.js';
import { escapeHtml, redirectHome, sendPage } from '../reply.js';
import { sessionCookie } from '../session.js';

/** The login code a page visit offers, or null (the API never takes one). */
export function offeredLoginCode(req: IncomingMessage, url: URL): string | null {
  if (req.method !== 'GET' || url.pathname.startsWith(WEB_API_PREFIX)) return null;
  return url.searchParams.get('token');
}

export function login(
  ctx: WebContext,
  req: IncomingMessage,
  res: ServerResponse,
  code: string,
): void {
  const session = ctx.sessions.redeem(code, req.socket.remoteAddress ?? '');
  if ('cookie' in session)
    return redirectHome(res, `/#key=${session.pageKey}`, sessionCookie(ctx.port, session.cookie));
  // The printed link opened again in a browser already signed in: just show the app (the
  // page keeps its key; the redirect carries none).
  if (ctx.sessions.hasCookie(req, ctx.port)) return redirectHome(res);
  sendPage(
    res,
    401,
    `<p>${escapeHtml(session.refused)}</p><p>Press Enter where <code>npm run web</code> runs for a new login link.</p>`,
  );
}
