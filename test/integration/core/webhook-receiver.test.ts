/** The demo's loopback webhook endpoint: applies in arrival order, answers what it means. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../src/main/sync/webhook-receiver.js';

let receiver: WebhookReceiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

const post = (url: string, body: string, type = 'application/json') =>
  fetch(url, { method: 'POST', headers: { 'content-type': type }, body });

describe('demo webhook receiver', () => {
  it('applies each delivery in arrival order and answers 204', async () => {
    const applied: unknown[] = [];
    let releaseFirst = () => {};
    let firstStarted = () => {};
    const started = new Promise<void>((r) => (firstStarted = r));
    const firstHeld = new Promise<void>((r) => (releaseFirst = r));
    receiver = await startWebhookReceiver({
      apply: async (p) => {
        if ((p as { n: number }).n === 1) {
          firstStarted();
          await firstHeld;
        }
        applied.push(p);
      },
    });
    const first = post(receiver.url, '{"n":1}');
    await started;
    // The second arrives while the first is still being applied: it waits its turn.
    const second = post(receiver.url, '{"n":2}');
    releaseFirst();
    expect((await first).status).toBe(204);
    expect((await second).status).toBe(204);
    expect(applied).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('refuses a wrong secret, a body that is not JSON and a body over 1 MiB', async () => {
    const applied: unknown[] = [];
    receiver = await startWebhookReceiver({ apply: async (p) => void applied.push(p) });
    const wrong = receiver.url.replace(/hooks\/.+$/, 'hooks/guess');
    expect((await post(wrong, '{}')).status).toBe(404);
    expect((await post(receiver.url, 'not json')).status).toBe(400);
    expect((await post(receiver.url, '{}', 'text/plain')).status).toBe(415);
    const huge = await post(receiver.url, JSON.stringify({ x: 'y'.repeat(1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: 'payload_too_large' });
    expect(applied).toEqual([]);
  });

  it('answers 503 when applying fails (the simulator retries), and goes on with the next', async () => {
    let fail = true;
    const applied: unknown[] = [];
    receiver = await startWebhookReceiver({
      apply: async (p) => {
        if (fail) throw new Error('store busy');
        applied.push(p);
      },
    });
    expect((await post(receiver.url, '{"n":1}')).status).toBe(503);
    fail = false;
    expect((await post(receiver.url, '{"n":1}')).status).toBe(204);
    expect(applied).toEqual([{ n: 1 }]);
  });
});
