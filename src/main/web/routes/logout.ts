/** `POST /api/logout`: ends this browser's session and clears its cookie. */
import { WEB_LOGOUT_PATH } from '../../../shared/ipc.js';
import type { WebRoute } from '../context.js';
import { sendWebJson } from '../reply.js';
import { clearedSessionCookie } from '../session.js';

export const logoutRoute: WebRoute = {
  method: 'POST',
  path: WEB_LOGOUT_PATH,
  handle({ ctx, req, res, url }) {
    ctx.sessions.logout(req, ctx.port, url);
    sendWebJson(
      res,
      200,
      { ok: true, value: null },
      { 'set-cookie': clearedSessionCookie(ctx.port) },
    );
  },
};
