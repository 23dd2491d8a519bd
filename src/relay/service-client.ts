/**
 * The few service calls `relay register` needs, on undici with timeouts: a token per
 * scope (form-encoded client_credentials) and the webhook list/register/delete calls.
 * Responses are validated; errors carry the service's OAuth error, never the keys.
 */
import { request } from 'undici';
import { z } from 'zod';
import { webhookWireSchema, type Webhook } from '../shared/wire.js';

const TIMEOUTS = { headersTimeout: 15_000, bodyTimeout: 15_000 };

const tokenResponse = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
});
const oauthError = z.looseObject({
  error: z.string().optional(),
  error_description: z.string().optional(),
});

export interface ServiceKeys {
  publicKey: string;
  privateKey: string;
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');

async function readJson(body: { text(): Promise<string> }): Promise<unknown> {
  const text = await body.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { nonJson: text.slice(0, 200) };
  }
}

/** `Bearer <token>` for one scope. */
export async function fetchToken(
  authUrl: string,
  keys: ServiceKeys,
  scope: 'calendar' | 'news',
): Promise<string> {
  const res = await request(`${trimSlash(authUrl)}/v2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: keys.publicKey,
      client_secret: keys.privateKey,
      scope,
    }).toString(),
    ...TIMEOUTS,
  });
  const json = await readJson(res.body);
  const ok = tokenResponse.safeParse(json);
  if (res.statusCode === 200 && ok.success) return `Bearer ${ok.data.access_token}`;
  const err = oauthError.safeParse(json);
  const what = err.success && err.data.error ? err.data.error : `HTTP ${res.statusCode}`;
  const why = err.success && err.data.error_description ? ` (${err.data.error_description})` : '';
  throw new Error(`the token service refused the keys for ${scope}: ${what}${why}`);
}

export interface WebhookApi {
  list(): Promise<Webhook[]>;
  /** 201 created, 200 already there, 444 the two-URL limit; anything else as is. */
  register(url: string): Promise<{ status: number; body: unknown }>;
  remove(id: string): Promise<number>;
}

export function webhookApi(baseUrl: string, auth: string): WebhookApi {
  const base = `${trimSlash(baseUrl)}/webhooks`;
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => {
    const res = await request(url, {
      method,
      headers: {
        authorization: auth,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      ...TIMEOUTS,
    });
    return { status: res.statusCode, body: await readJson(res.body) };
  };
  return {
    async list() {
      const res = await call('GET', base);
      if (res.status !== 200)
        throw new Error(`listing webhooks at ${base} failed: HTTP ${res.status}`);
      const parsed = z.array(webhookWireSchema).safeParse(res.body);
      if (!parsed.success) throw new Error(`the webhook list from ${base} is not what we expect`);
      return parsed.data;
    },
    register: (url) => call('POST', base, { url }),
    remove: async (id) => (await call('DELETE', `${base}/${encodeURIComponent(id)}`)).status,
  };
}
