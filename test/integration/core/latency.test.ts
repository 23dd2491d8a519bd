// @clock any-moment — it makes the releases it needs relative to now (the demo only lends an event id)
/**
 * The latency panel (Settings → Live updates, from the status push) and the receipts tell
 * the same story: both measure print → shown (a surface's acknowledgement), and the panel's
 * last push comes after the last notification was acknowledged. On the real demo core and its simulator.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppStatus, EventDate, FeedLatency } from '../../../src/shared/domain.js';
import { createAppService, type AppService } from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { simJson, waitFor } from './harness.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function demo(): Promise<AppService> {
  const service = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), 'mb-latency-')),
    mode: 'demo',
    secretStore: new MemorySecretStore(),
    logFile: null,
    logLevel: 'silent',
    demo: { autoplay: false, seed: 5 },
  });
  cleanup.push(() => service.stop());
  await service.start();
  return service;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length / 2) - 1];

describe('latency panel and receipts', () => {
  it('the panel’s p50 is the median of the receipts’ print → shown', async () => {
    const service = await demo();
    const sim = { url: service.simulatorUrl } as RunningSimulator;
    const pushed: AppStatus[] = [];
    const off = service.on('status', (s) => pushed.push(s));
    // the window: its toast acknowledges each notification (shown is what a surface saw)
    const offAck = service.on('notification', (n) => {
      if (n.deliveryId)
        void service.api.alertShown({ id: n.deliveryId, surface: 'toast', at: Date.now() });
    });
    cleanup.push(async () => {
      off();
      offAck();
    });
    const any = (await simJson<EventDate[]>(sim, 'GET', '/_sim/event-dates'))[0] as EventDate;
    // three releases, a few seconds apart: three notifications, three receipts
    const releases: EventDate[] = [];
    for (const inMs of [1_500, 3_500, 5_500])
      releases.push(
        await simJson<EventDate>(sim, 'POST', '/_sim/event-dates', {
          eventId: any.eventId,
          dateUtc: new Date(Date.now() + inMs).toISOString(),
          volatility: 'HIGH',
        }),
      );
    for (const [i, ed] of releases.entries()) {
      await waitFor(() => Date.now() >= Date.parse(ed.dateUtc), 'the release time');
      await simJson(sim, 'PATCH', `/_sim/event-dates/${ed.id}`, { actual: 100 + i });
    }
    const ids = new Set(releases.map((r) => r.id));
    const receipts = await waitFor(async () => {
      const mine = (await service.api.listAlerts({ limit: 50 })).filter(
        (a) => a.target.type === 'eventDate' && ids.has(a.target.eventDateId),
      );
      const shown = mine.map((a) => a.receipt).filter((r) => r?.shownAt != null);
      return shown.length === 3 ? shown : null;
    }, 'three receipts acknowledged');
    expect(receipts.map((r) => r?.shownBy)).toEqual(['toast', 'toast', 'toast']);
    const delays = receipts.map((r) => (r?.shownAt ?? 0) - (r?.printAt ?? 0));
    const expected = median(delays);

    const webhook = (l: FeedLatency[]) => l.find((x) => x.path === 'webhook');
    // what the panel shows: the last status pushed, after the last notification went out
    await waitFor(() => webhook(pushed.at(-1)?.feedLatency ?? [])?.count === 3, 'the push');
    expect(webhook(pushed.at(-1)?.feedLatency ?? [])?.p50Ms).toBe(expected);
    expect(webhook((await service.api.getStatus()).feedLatency)?.p50Ms).toBe(expected);
  });
});
