/**
 * `relay register`: registers <public-url>/hooks/<secret> with the service's calendar
 * and/or news webhooks, with the desk's keys, through the shared token manager and webhook
 * client. On HTTP 444 (the two-URL limit) it lists what is registered (secrets masked) and
 * prints the exact command that replaces each one.
 */
import type { Scope } from '../../shared/domain.js';
import type { HttpClient } from '../../node/http/client.js';
import { defaultHttpClient } from '../../node/http/client.js';
import type { Credentials } from '../../node/oauth/client-credentials.js';
import { TokenManager } from '../../node/oauth/token-manager.js';
import { WebhookLimitError } from '../../node/service/errors.js';
import { createWebhookClient, type WebhookClient } from '../../node/service/webhooks.js';
import { maskUrl } from '../mask-url.js';

export interface ServiceUrls {
  auth: string;
  calendar: string;
  news: string;
}

export interface RegisterOptions {
  publicUrl: string;
  secret: string;
  apis: Scope[];
  replace?: string;
  urls: ServiceUrls;
  keys: Credentials;
  print: (line: string) => void;
  http?: HttpClient;
  /** Another webhook secret to mask too (rotate-secret: the one being replaced). */
  alsoMask?: string[];
  /**
   * The command as the user ran it, without --calendar/--news/--replace (their --data and
   * service URLs kept), so the printed --replace line runs as printed.
   */
  rerun?: string;
}

/** The webhook client of each API, on one token manager with the desk's keys. */
export function serviceWebhooks(
  urls: ServiceUrls,
  keys: Credentials,
  http: HttpClient = defaultHttpClient(),
): (api: Scope) => WebhookClient {
  const tokens = new TokenManager({
    authUrl: () => urls.auth,
    credentials: async () => keys,
    http,
  });
  return (api) => createWebhookClient({ scope: api, baseUrl: () => urls[api], tokens, http });
}

/** Exit codes: 0 done, 1 failed, 3 the two-URL limit (re-run with --replace). */
export async function register(opts: RegisterOptions): Promise<number> {
  const webhooks = serviceWebhooks(opts.urls, opts.keys, opts.http);
  const hookUrl = `${opts.publicUrl.replace(/\/+$/, '')}/hooks/${opts.secret}`;
  // Secrets are as good as passwords: never print one, even inside a listed URL.
  const mask = (u: string) => maskUrl(u, [opts.secret, ...(opts.alsoMask ?? [])]);
  let code = 0;
  for (const api of opts.apis) {
    const hooks = webhooks(api);
    if (opts.replace) {
      try {
        await hooks.remove(opts.replace);
        opts.print(`${api}: removed webhook ${opts.replace}`);
      } catch (err) {
        opts.print(`${api}: webhook ${opts.replace} not removed (${(err as Error).message})`);
      }
    }
    const list = await hooks.list();
    opts.print(
      `${api}: registered now: ${list.length === 0 ? 'none' : list.map((w) => `${mask(w.url)} (id ${w.id})`).join(', ')}`,
    );
    try {
      const res = await hooks.register(hookUrl);
      opts.print(`${api}: ${res.created ? 'registered' : 'already registered'} ${mask(hookUrl)}`);
    } catch (err) {
      if (!(err instanceof WebhookLimitError)) {
        code = Math.max(code, 1);
        opts.print(`${api}: registration failed: ${mask((err as Error).message)}`);
        continue;
      }
      code = Math.max(code, 3);
      opts.print(
        [
          `${api}: the service allows two webhook URLs and both are taken (HTTP 444):`,
          // Masked URLs of one host look alike: say which one carries this relay's secret.
          ...err.registered.map(
            (w) =>
              `    ${w.id}  ${mask(w.url)}${w.url.includes(opts.secret) ? "  (this relay's current secret)" : ''}`,
          ),
          '  To put the relay in the place of one of them, run the command for that id:',
          ...err.registered.map(
            (w) =>
              `    ${opts.rerun ?? `npm run relay -- register --public-url ${opts.publicUrl}`} --${api} --replace ${w.id}`,
          ),
        ].join('\n'),
      );
    }
  }
  return code;
}
