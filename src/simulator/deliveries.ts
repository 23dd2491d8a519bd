/**
 * Webhook registrations and deliveries. Only 200/204 count as success (and set
 * lastSentAt); anything else is retried on the listed schedule (no jitter: it mirrors the
 * documented 5 s, 30 s, 2 min, 10 min, docs/service-api.md), then given up.
 * Deliveries run concurrently, so they may arrive out of order — as the real one may.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { backoffDelay, type BackoffPolicy } from '../node/backoff.js';
import { ReplyError } from '../node/http/server/reply-error.js';
import type { Api, DeliveryRecord, SimulatorState, Webhook } from './state.js';
import { messageOf } from '../shared/error-message.js';

export const MAX_WEBHOOKS = 2;

export class Deliverer {
  private nextId = 1;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inflight = new Set<Promise<void>>();
  private closed = false;
  private readonly retry: BackoffPolicy;

  constructor(
    private readonly state: SimulatorState,
    private readonly retrySchedule: number[],
    private readonly timeoutMs = 5_000,
  ) {
    this.retry = { baseMs: 0, maxMs: Infinity, jitter: 'none', schedule: retrySchedule };
  }

  register(api: Api, url: string): { webhook: Webhook; created: boolean } {
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
      throw new ReplyError(400, 'invalid_url', 'url must be an absolute http(s) URL');
    }
    const list = this.state.webhooks[api];
    const existing = list.find((w) => w.url === url);
    if (existing) return { webhook: existing, created: false };
    if (list.length >= MAX_WEBHOOKS) {
      throw new ReplyError(
        444,
        'webhook_limit',
        `At most ${MAX_WEBHOOKS} webhook URLs can be registered`,
      );
    }
    const webhook: Webhook = {
      id: randomUUID(),
      url,
      createdAt: new Date().toISOString(),
      lastSentAt: null,
    };
    list.push(webhook);
    return { webhook, created: true };
  }

  remove(api: Api, id: string): void {
    const list = this.state.webhooks[api];
    const i = list.findIndex((w) => w.id === id);
    if (i < 0) throw new ReplyError(404, 'not_found', `No webhook ${id}`);
    list.splice(i, 1);
  }

  /** Send a notification to every webhook of the API (with injected drop/duplicate faults). */
  notify(api: Api, payload: { type: string } & Record<string, unknown>): void {
    for (const webhook of this.state.webhooks[api]) {
      const f = this.state.faults.deliveries;
      if (f?.drop && f.drop > 0) {
        f.drop--;
        this.record(webhook, api, payload, 0, null, false, 'dropped (fault)');
        continue;
      }
      let copies = 1;
      if (f?.duplicate && f.duplicate > 0) {
        f.duplicate--;
        copies = 2;
      }
      for (let c = 0; c < copies; c++) this.track(this.attempt(webhook, api, payload, 1));
    }
  }

  /** Wait until no delivery is in flight (tests). */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  close(): void {
    this.closed = true;
    this.timers.forEach((t) => clearTimeout(t));
    this.timers.clear();
  }

  private track(p: Promise<void>): void {
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }

  private async attempt(
    webhook: Webhook,
    api: Api,
    payload: unknown,
    attempt: number,
  ): Promise<void> {
    // a webhook deleted while a retry was pending gets nothing more
    if (this.closed || !this.state.webhooks[api].includes(webhook)) return;
    let status: number | null = null;
    let error: string | undefined;
    try {
      const res = await request(webhook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'macrobell-simulator/1' },
        body: JSON.stringify(payload),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      status = res.statusCode;
      await res.body.dump();
    } catch (err) {
      error = messageOf(err);
    }
    const ok = status === 200 || status === 204;
    if (ok) webhook.lastSentAt = new Date().toISOString();
    this.record(webhook, api, payload, attempt, status, ok, error);
    if (
      !ok &&
      !this.closed &&
      attempt <= this.retrySchedule.length &&
      this.state.webhooks[api].includes(webhook)
    ) {
      const delay = backoffDelay(this.retry, attempt - 1);
      const t = setTimeout(() => {
        this.timers.delete(t);
        this.track(this.attempt(webhook, api, payload, attempt + 1));
      }, delay);
      t.unref();
      this.timers.add(t);
    }
  }

  private record(
    webhook: Webhook,
    api: Api,
    payload: unknown,
    attempt: number,
    status: number | null,
    ok: boolean,
    error?: string,
  ): void {
    const rec: DeliveryRecord = {
      id: this.nextId++,
      webhookId: webhook.id,
      api,
      url: webhook.url,
      type: String((payload as { type?: unknown }).type),
      payload,
      attempt,
      status,
      ok,
      at: new Date().toISOString(),
      ...(error ? { error } : {}),
    };
    this.state.deliveries.push(rec);
    if (this.state.deliveries.length > 10_000) this.state.deliveries.splice(0, 1_000);
  }
}
