/**
 * The service's webhook management (list, register, delete) for one API, shared by the
 * app (demo webhooks, settings) and `relay register`. Each call carries the scope's token
 * from the shared token manager (authorized-call.ts: a 401 drops it and retries once).
 */
import { z } from 'zod';
import type { Scope } from '../../shared/domain.js';
import { webhookWireSchema, type Webhook } from '../../shared/wire.js';
import { HttpError, type HttpClient } from '../http/client.js';
import { authorizedCall } from './authorized-call.js';
import type { TokenManager } from '../oauth/token-manager.js';
import { ApiInputError, ResponseShapeError, WebhookLimitError } from './errors.js';

export interface WebhookClient {
  list(): Promise<Webhook[]>;
  /** Throws WebhookLimitError (with the registered list) on the two-URL limit (HTTP 444). */
  register(url: string): Promise<{ webhook: Webhook; created: boolean }>;
  remove(id: string): Promise<void>;
}

interface WebhookClientOptions {
  scope: Scope;
  /** The API's base URL (the calendar or news URL). */
  baseUrl: () => string;
  tokens: TokenManager;
  http: HttpClient;
  /** An invalid item in a list is skipped; this hears about it. */
  onInvalidItem?: (issues: string) => void;
}

const webhookUrlSchema = z.url({ protocol: /^https?$/ }).max(2000);
const idSchema = z.string().trim().min(1).max(200);

export function createWebhookClient(opts: WebhookClientOptions): WebhookClient {
  const { scope, tokens, http } = opts;
  const endpoint = `${scope} webhooks`;
  const send = authorizedCall(() => opts.baseUrl().replace(/\/+$/, ''), tokens, http);
  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
    send(scope, method, `/webhooks${path}`, body);
  const list = async (): Promise<Webhook[]> => {
    const { json } = await call('GET', '');
    if (!Array.isArray(json)) throw new ResponseShapeError(endpoint, 'expected an array');
    const out: Webhook[] = [];
    for (const item of json) {
      const r = webhookWireSchema.safeParse(item);
      if (r.success) out.push(r.data);
      else opts.onInvalidItem?.(z.prettifyError(r.error));
    }
    return out;
  };
  return {
    list,
    async register(url) {
      const checked = webhookUrlSchema.safeParse(url);
      if (!checked.success) throw new ApiInputError(endpoint, z.prettifyError(checked.error));
      try {
        const res = await call('POST', '', { url });
        const hook = webhookWireSchema.safeParse(res.json);
        if (!hook.success) throw new ResponseShapeError(endpoint, z.prettifyError(hook.error));
        return { webhook: hook.data, created: res.status === 201 };
      } catch (err) {
        if (err instanceof HttpError && err.status === 444)
          throw new WebhookLimitError(scope, await list().catch(() => []));
        throw err;
      }
    },
    async remove(id) {
      const checked = idSchema.safeParse(id);
      if (!checked.success) throw new ApiInputError(endpoint, z.prettifyError(checked.error));
      await call('DELETE', `/${encodeURIComponent(checked.data)}`);
    },
  };
}
