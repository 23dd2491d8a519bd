/**
 * A disk-full SQLite relay (#43 item 8): while it refuses webhooks (a real SQLITE_FULL, made
 * with SQLite's own `max_page_count` on the relay's database) its desktop is told at once
 * on the open stream (`event: store`), so the app shows "Live — relay behind" with the
 * reason instead of "Live (relay)"; room again, the next webhook is stored and the app is
 * told that too. Every status change counted once. Each refused webhook is answered 503
 * `disk_full` with Retry-After, so the service retries it.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveConnection } from '../../../src/main/sync/connection-state.js';
import type { RelayStatus } from '../../../src/main/sync/live-source.js';
import { RelayConsumer } from '../../../src/main/sync/relay-consumer.js';
import type { SqliteEventLog } from '../../../src/relay/log/sqlite-log.js';
import { startRelay } from '../../../src/relay/server.js';
import { connectionLabel } from '../../../src/shared/connection.js';
import { SECRET, TOKEN, openRawStream, post, tempDir, waitFor } from './helpers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

describe('a relay whose disk is full', () => {
  it('tells its desktops it refuses webhooks, and when it takes them again', async () => {
    const relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
    cleanups.push(() => relay.close());
    const statuses: RelayStatus[] = [];
    const applied: number[] = [];
    let cursor: string | null = null;
    const consumer = new RelayConsumer({
      url: relay.url,
      token: async () => TOKEN,
      getLastEventId: () => cursor,
      applier: {
        one: async (id, payload) => {
          applied.push((payload as { n: number }).n);
          cursor = id;
        },
      },
      onReset: async () => undefined,
      onReconnectGap: async () => undefined,
      onStatus: (s) => statuses.push(s),
      backoff: { minMs: 50, maxMs: 200 },
    });
    consumer.start();
    cleanups.push(() => consumer.stop());
    await waitFor(() => statuses.at(-1)?.connected === true, 'the stream open');
    const body = (n: number) => JSON.stringify({ type: 't', n, pad: 'x'.repeat(8000) });
    expect((await post(relay.webhookUrl, body(1))).status).toBe(204);
    await waitFor(() => applied.length === 1, 'the first event');

    // The disk is full: SQLite refuses to grow the file past its current pages.
    const db = (relay.log as SqliteEventLog).db;
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    for (let n = 2; n <= 4; n++) {
      // A 503 with Retry-After and the reason: the service retries it (a 500 it may drop).
      const res = await request(relay.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body(n),
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(await res.body.json()).toEqual({
        error: 'disk_full',
        message:
          'The relay cannot store webhooks now: its disk is full (the operator must free space); retry later',
      });
    }
    await waitFor(() => statuses.some((s) => s.refusing), 'the desktop told');
    const told = statuses.find((s) => s.refusing) as RelayStatus;
    expect(told.refusing).toMatch(/^the last 3 commits failed: database or disk is full$/);
    const state = deriveConnection({
      transport: 'relay',
      health: { lastOkAt: 1, failingSince: null, error: null },
      relay: { ...told, downSince: null, behind: told.behind ?? null },
      webhooksLateSince: null,
      startedAt: 0,
      lastDeliveryAt: null,
      now: 10,
    });
    expect(connectionLabel(state, false)).toBe('Live — relay behind');
    expect(state.reason).toMatch(/cannot store webhooks: the last 3 commits failed/);

    // A stream opened meanwhile is told first thing.
    const late = await openRawStream(`${relay.url}/events`, { authorization: `Bearer ${TOKEN}` });
    await waitFor(() => late.text().includes('event: position'), 'the late stream open');
    late.close();
    expect(late.text()).toMatch(
      /^retry: 2000\n\nevent: store\ndata: \{"refusing":"the last 3 commits failed: database or disk is full"\}\n\n/,
    );

    // Room again: the service's retry is stored, and the desktop is told.
    db.pragma('max_page_count = 1073741823');
    expect((await post(relay.webhookUrl, body(2))).status).toBe(204);
    await waitFor(() => applied.length === 2, 'the retried event');
    await waitFor(() => statuses.at(-1)?.refusing === null, 'told it takes them again');
    const changes = statuses
      .map((s) => s.refusing ?? null)
      .filter((r, i, all) => i === 0 || r !== all[i - 1]);
    expect(changes).toEqual([null, told.refusing, null]);
    expect(applied).toEqual([1, 2]);
  });
});
