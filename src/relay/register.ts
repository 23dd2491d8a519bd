/**
 * `relay register`: registers <public-url>/hooks/<secret> with the service's calendar
 * and/or news webhooks, with the user's keys from the environment. On HTTP 444 (the
 * two-URL limit) it shows what is registered and how to replace one (`--replace <id>`).
 */
import { fetchToken, webhookApi, type ServiceKeys } from './service-client.js';

export interface RegisterOptions {
  publicUrl: string;
  secret: string;
  apis: ('calendar' | 'news')[];
  replace?: string;
  urls: { auth: string; calendar: string; news: string };
  keys: ServiceKeys;
  print: (line: string) => void;
}

/** Exit codes: 0 done, 1 failed, 3 the two-URL limit (re-run with --replace). */
export async function register(opts: RegisterOptions): Promise<number> {
  const hookUrl = `${opts.publicUrl.replace(/\/+$/, '')}/hooks/${opts.secret}`;
  // The secret is as good as a password: never print it, even inside a listed URL.
  const mask = (u: string) => u.split(opts.secret).join('<secret>');
  let code = 0;
  for (const api of opts.apis) {
    const hooks = webhookApi(opts.urls[api], await fetchToken(opts.urls.auth, opts.keys, api));
    if (opts.replace) {
      const status = await hooks.remove(opts.replace);
      opts.print(
        status === 204 || status === 200
          ? `${api}: removed webhook ${opts.replace}`
          : `${api}: webhook ${opts.replace} not removed (HTTP ${status})`,
      );
    }
    const list = await hooks.list();
    opts.print(
      `${api}: registered now: ${list.length === 0 ? 'none' : list.map((w) => `${mask(w.url)} (id ${w.id})`).join(', ')}`,
    );
    const res = await hooks.register(hookUrl);
    const shown = mask(hookUrl);
    if (res.status === 201) opts.print(`${api}: registered ${shown}`);
    else if (res.status === 200) opts.print(`${api}: already registered ${shown}`);
    else if (res.status === 444) {
      code = Math.max(code, 3);
      opts.print(
        [
          `${api}: the service allows two webhook URLs and both are taken (HTTP 444):`,
          ...list.map((w) => `    ${w.id}  ${mask(w.url)}`),
          '  Re-run with --replace <id> to remove one of them and register the relay in its place.',
        ].join('\n'),
      );
    } else {
      code = Math.max(code, 1);
      opts.print(`${api}: registration failed: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    }
  }
  return code;
}
