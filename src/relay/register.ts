/**
 * `relay register`: registers <public-url>/hooks/<secret> with the service's calendar
 * and/or news webhooks, with the user's keys from the environment. On HTTP 444 (the
 * two-URL limit) it shows what is registered and how to replace one.
 */
import { request } from 'undici';

export interface RegisterOptions {
  publicUrl: string;
  secret: string;
  apis: ('calendar' | 'news')[];
  replace?: string;
  urls: { auth: string; calendar: string; news: string };
  keys: { publicKey: string; privateKey: string };
  print: (line: string) => void;
}

interface Webhook {
  id: string;
  url: string;
  lastSentAt?: string | null;
}

async function token(opts: RegisterOptions, scope: string): Promise<string> {
  const res = await request(`${opts.urls.auth.replace(/\/+$/, '')}/v2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: opts.keys.publicKey,
      client_secret: opts.keys.privateKey,
      scope,
    }).toString(),
  });
  const body = (await res.body.json().catch(() => ({}))) as {
    access_token?: string;
    token_type?: string;
    error?: string;
    error_description?: string;
  };
  if (res.statusCode !== 200 || !body.access_token) {
    throw new Error(
      `The token service refused the keys for ${scope}: ${body.error ?? `HTTP ${res.statusCode}`}${body.error_description ? ` (${body.error_description})` : ''}`,
    );
  }
  return `${body.token_type ?? 'Bearer'} ${body.access_token}`;
}

async function call(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  auth: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const res = await request(url, {
    method,
    headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? (JSON.parse(text) as unknown) : null };
}

/** Returns the process exit code. */
export async function register(opts: RegisterOptions): Promise<number> {
  const hookUrl = `${opts.publicUrl.replace(/\/+$/, '')}/hooks/${opts.secret}`;
  let code = 0;
  for (const api of opts.apis) {
    const base = `${opts.urls[api].replace(/\/+$/, '')}/webhooks`;
    const auth = await token(opts, api);
    if (opts.replace) {
      const del = await call('DELETE', `${base}/${encodeURIComponent(opts.replace)}`, auth);
      opts.print(
        del.status === 204
          ? `${api}: removed webhook ${opts.replace}`
          : `${api}: webhook ${opts.replace} not removed (HTTP ${del.status})`,
      );
    }
    const list = (await call('GET', base, auth)).json as Webhook[];
    opts.print(
      `${api}: registered now: ${list.length === 0 ? 'none' : list.map((w) => `${w.url.replace(opts.secret, '<secret>')} (id ${w.id})`).join(', ')}`,
    );
    const res = await call('POST', base, auth, { url: hookUrl });
    const shown = hookUrl.replace(opts.secret, '<secret>');
    if (res.status === 201) opts.print(`${api}: registered ${shown}`);
    else if (res.status === 200) opts.print(`${api}: already registered ${shown}`);
    else if (res.status === 444) {
      code = 3;
      opts.print(
        `${api}: the service allows two webhook URLs and both are taken:\n${list.map((w) => `    ${w.id}  ${w.url}`).join('\n')}\n  Re-run with --replace <id> to remove one of them and register the relay in its place.`,
      );
    } else {
      code = 1;
      opts.print(`${api}: registration failed: HTTP ${res.status} ${JSON.stringify(res.json)}`);
    }
  }
  return code;
}
