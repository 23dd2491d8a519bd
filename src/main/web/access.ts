/**
 * What every request passes before the route table: our own Origin and Host (against CSRF
 * and DNS rebinding), a login visit, then the session. The app's files need only the
 * cookie (they hold no data); the API needs the page key too (or the scripts' token).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WEB_API_PREFIX } from '../../shared/ipc.js';
import type { WebContext } from './context.js';
import { webErrors } from './errors.js';
import { sendPage } from './reply.js';
import { isRenewal, login, newLinkHelp, offeredLoginCode, renewLogin } from './routes/login.js';
import { checkOriginAndHost } from './session.js';

/** True when the request goes on to its route; false when this already answered it. */
export function admit(
  ctx: WebContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): boolean {
  const refused = checkOriginAndHost(req, ctx.port);
  if (refused) throw webErrors.forbidden(refused);
  if (isRenewal(req, url)) {
    void renewLogin(ctx, req, res);
    return false;
  }
  const code = offeredLoginCode(req, url);
  if (code !== null) {
    login(ctx, req, res, code);
    return false;
  }
  const isApi = url.pathname.startsWith(WEB_API_PREFIX);
  const { sessions, port } = ctx;
  if (sessions.isAuthorized(req, port, url) || (!isApi && sessions.hasCookie(req, port)))
    return true;
  if (isApi) throw webErrors.unauthorized();
  sendPage(
    res,
    401,
    `<p>Open Macrobell with the login link it printed in its terminal (it carries a one-time code).</p>${newLinkHelp(ctx)}`,
    newLinkHelp.headers(ctx),
  );
  return false;
}
