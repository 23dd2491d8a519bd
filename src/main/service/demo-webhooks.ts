/**
 * Demo mode: the embedded simulator's webhooks come straight in (no relay), so demo data
 * is live.
 */
import type { Logger } from '../../node/log/logger.js';
import type { ChangeApplier } from '../sync/applier.js';
import { InvalidNotificationError } from '../errors.js';
import type { SyncEngine } from '../sync/engine.js';
import { isRetryable } from '../sync/relay-apply.js';
import { startWebhookReceiver, type WebhookReceiver } from '../sync/webhook-receiver.js';

interface WebhookRegistrar {
  webhooks: { register(url: string): Promise<unknown> };
}

export interface DemoWebhooksDeps {
  sync: Pick<SyncEngine, 'noteWebhook' | 'countBad'>;
  applier: Pick<ChangeApplier, 'applyNotification'>;
  calendar: WebhookRegistrar;
  news: WebhookRegistrar;
  logger: Logger;
}

export async function connectDemoWebhooks(d: DemoWebhooksDeps): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver({
    apply: async (payload) => {
      d.sync.noteWebhook(payload);
      try {
        await d.applier.applyNotification(payload, 'webhook');
      } catch (err) {
        // A body that can never apply is answered 204 (a retry would not help) and counted.
        if (isRetryable(err) || !(err instanceof Error)) throw err;
        if (!(err instanceof InvalidNotificationError)) d.logger.warn({ err }, 'webhook skipped');
        d.sync.countBad();
      }
    },
    logger: d.logger,
  });
  try {
    await Promise.all([
      d.calendar.webhooks.register(receiver.url),
      d.news.webhooks.register(receiver.url),
    ]);
  } catch (err) {
    await receiver.close();
    throw err;
  }
  return receiver;
}

/**
 * The demo's webhook connection, made at start (after sync exists) and asked by sync
 * from the first: while it is up, webhooks come straight in and polling can rest.
 */
export class DemoWebhookLink {
  private receiver: WebhookReceiver | null = null;

  get connected(): boolean {
    return this.receiver !== null;
  }

  /** Connect; without it the demo still runs, by polling (logged, never thrown). */
  async connect(d: DemoWebhooksDeps): Promise<void> {
    this.receiver = await connectDemoWebhooks(d).catch((err: unknown) => {
      d.logger.warn({ err }, 'demo webhooks unavailable');
      return null;
    });
  }

  close(): Promise<void> {
    return this.receiver?.close() ?? Promise.resolve();
  }
}
