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

/** How to get another login link: the terminal that runs the app prints one on Enter. */
export const NEW_LINK_HELP =
  '<p>For a new login link, press Enter in the terminal where Macrobell runs (<code>npm run web</code> or <code>npm start</code>) and open the link it prints there. ' +
  'If that terminal is gone, start Macrobell again: it prints a fresh link. A browser already signed in stays signed in.</p>';

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
  sendPage(res, 401, `<p>${escapeHtml(session.refused)}</p>${NEW_LINK_HELP}`);
}
