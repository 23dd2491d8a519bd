/**
 * Issue #44, item 3: a forged `post_deleted` (a leaked webhook secret) removed a real story
 * for good, even after two full syncs — its tombstone kept every later read out. A
 * deletion a notification brings is now provisional: the service's read decides, and a
 * story it still has comes back (with no second alert).
 * The core runs against the simulator over real HTTP with a real SQLite file; a driver
 * hands notifications to the relay consumer's apply path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayConsumerFactory } from '../../../src/main/sync/live-source.js';
import { ChangeApplier } from '../../../src/main/sync/applier.js';
import { PROVISIONAL_STALE_MS } from '../../../src/main/store/event-dates.js';
import { simJson, startCore, waitFor, type CoreHarness } from './harness.js';

let h: CoreHarness;
let apply: (id: string, payload: unknown) => Promise<void>;
let nextId = 1;
const deliver = (payload: unknown) => apply(String(nextId++), payload);
const confirmDelay = ChangeApplier.postConfirmDelayMs;

beforeAll(async () => {
  // The service's read must come late enough to decide (PROVISIONAL_STALE_MS); not the
  // shipped minute, which only waits out the desk gateway's kept answers.
  ChangeApplier.postConfirmDelayMs = PROVISIONAL_STALE_MS + 200;
  const relayConsumer: RelayConsumerFactory = (o) => {
    apply = (id, payload) => o.applier.one(id, payload);
    return {
      start: () =>
        o.onStatus({
          connected: true,
          node: null,
          lastEventId: null,
          lastEventAt: null,
          lagMs: null,
          error: null,
        }),
      stop: () => undefined,
    };
  };
  h = await startCore({
    service: { relayConsumer, env: { MACROBELL_RELAY_URL: 'http://127.0.0.1:9/relay' } },
  });
  await h.service.start();
});
afterAll(async () => {
  ChangeApplier.postConfirmDelayMs = confirmDelay;
  await h?.close();
});

async function publish(title: string): Promise<string> {
  const post = await simJson<{ Id: string }>(h.sim, 'POST', '/_sim/posts', {
    culture: 'en-US',
    title,
    summary: 'A story the service keeps.',
    content: '<p>Body.</p>',
  });
  await deliver({
    type: 'post_created',
    postId: post.Id,
    culture: 'en-US',
    lastUpdated: Math.floor(Date.now() / 1000),
  });
  expect((await h.service.api.getPost({ id: post.Id, culture: 'en-US' }))?.title).toBe(title);
  return post.Id;
}

const shown = async (id: string) =>
  (await h.service.api.getPost({ id, culture: 'en-US' })) !== null;
const published = (id: string) =>
  h.events.changes.flat().filter((c) => c.kind === 'postPublished' && c.post.id === id).length;

describe('a forged post_deleted', () => {
  it('removes the story only until the service is asked: it comes back', async () => {
    const id = await publish('Real story the forger wants gone');
    const alertsBefore = (await h.service.api.listAlerts({ limit: 1000 })).length;
    await deliver({
      type: 'post_deleted',
      postId: id,
      culture: 'en-US',
      lastUpdated: Math.floor(Date.now() / 1000) + 60,
    });
    expect(await shown(id)).toBe(false);
    await waitFor(() => shown(id), 'the story back', 15_000);
    expect(published(id)).toBe(2); // the first news, and its return
    expect((await h.service.api.listAlerts({ limit: 1000 })).length).toBe(alertsBefore);
  });
});
