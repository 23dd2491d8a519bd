/**
 * First visit: the one-time code in the printed URL (`?token=`, on any page path) is traded
 * for a session cookie and a page key (in the redirect's fragment, which no request
 * carries), and the code leaves the address bar; the history keeps a spent code.
 *
 * An expired (or spent) link: the page says how to get a new one — Enter in the terminal —
 * and, when the app holds a secret only the trader has (the desk personal token, the
 * private key), offers to sign in with it: `POST /login/renew` (a form, same origin only),
 * compared in constant time, wrong tries limited for the whole app (session.ts says why).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, mediaType } from '../../../node/http/server/body.js';
import { ReplyError } from '../../../node/http/server/reply-error.js';
import { CSP } from '../../../shared/csp.js';
import { WEB_API_PREFIX } from '../../../shared/ipc.js';
import type { WebContext } from '../context.js';
import { escapeHtml, redirectHome, sendPage } from '../reply.js';
import { sessionCookie } from '../session.js';

const RENEW_PATH = '/login/renew';
const FORM_MAX_BYTES = 4096;

/** How to get another login link: the terminal that runs the app prints one on Enter. */
export const NEW_LINK_HELP =
  '<p>For a new login link, press Enter in the terminal where Macrobell runs (<code>npm run web</code> or <code>npm start</code>) and open the link it prints there. ' +
  'If that terminal is gone, start Macrobell again: it prints a fresh link. A browser already signed in stays signed in.</p>';

const RENEW_FORM =
  `<form method="post" action="${RENEW_PATH}"><p><strong>Link expired — get in again</strong> with a secret only you have: ` +
  'your desk personal token (<code>mbu_…</code>, from your desk lead) or your private API key, as this Macrobell holds it.</p>' +
  '<p><label>Personal token or private key <input type="password" name="secret" autocomplete="off" required></label> ' +
  '<button type="submit">Get in</button></p></form>';

/** The help, with the renewal form when this app holds a secret to check it against. */
export function newLinkHelp(ctx: Pick<WebContext, 'loginSecrets'>): string {
  return ctx.loginSecrets ? `${NEW_LINK_HELP}${RENEW_FORM}` : NEW_LINK_HELP;
}
/**
 * A page with the form may post it to this origin (the app's own pages post nothing), with
 * its Origin: under `no-referrer` a browser sends `Origin: null`, which the gate refuses.
 */
newLinkHelp.headers = (ctx: Pick<WebContext, 'loginSecrets'>): Record<string, string> =>
  ctx.loginSecrets
    ? {
        'content-security-policy': CSP.replace("form-action 'none'", "form-action 'self'"),
        'referrer-policy': 'same-origin',
      }
    : {};

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
    `<p>${escapeHtml(session.refused)}</p>${newLinkHelp(ctx)}`,
    newLinkHelp.headers(ctx),
  );
}

export function isRenewal(req: IncomingMessage, url: URL): boolean {
  return req.method === 'POST' && url.pathname === RENEW_PATH;
}

/** The renewal form's post: a session for the trader's own secret, else the page again. */
export async function renewLogin(
  ctx: WebContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const refuse = (status: number, why: string) =>
    sendPage(res, status, `<p>${escapeHtml(why)}</p>${newLinkHelp(ctx)}`, newLinkHelp.headers(ctx));
  try {
    if (ctx.loginSecrets === null) {
      req.resume();
      return refuse(404, 'This Macrobell gives new login links in its terminal only.');
    }
    if (mediaType(req) !== 'application/x-www-form-urlencoded') {
      req.resume();
      return refuse(415, 'Send the form from the login page.');
    }
    const body = await readBody(req, FORM_MAX_BYTES);
    const offered = new URLSearchParams(body.toString('utf8')).get('secret')?.trim() ?? '';
    const known = await ctx.loginSecrets().catch(() => []);
    const session = ctx.sessions.renew(offered, known);
    if ('cookie' in session)
      return redirectHome(res, `/#key=${session.pageKey}`, sessionCookie(ctx.port, session.cookie));
    refuse(401, session.refused);
  } catch (err) {
    if (res.headersSent) return void res.destroy();
    if (err instanceof ReplyError && err.status === 413)
      return refuse(413, 'That is longer than any personal token or key.');
    refuse(400, 'The form could not be read: send it again from the login page.');
  }
}
