// @clock any-day — compares the app's first view with the demo window the simulator generated, whatever the date holds
/**
 * Issue #36 item 16: on an empty data folder the demo's calendar shows its first rows
 * before the service has answered a single calendar request — they come from the embedded
 * simulator's own generated world, applied as a backfill — and the backfill that follows
 * replaces them in place: the same releases, none twice. On the real demo core and its
 * simulator; the service's answers are held back with the simulator's latency fault.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventDate } from '../../../src/shared/domain.js';
import { createAppService, type AppService } from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { simJson, waitFor } from './harness.js';

const DAY = 86_400_000;
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function demoOnEmptyFolder(dataDir = mkdtempSync(join(tmpdir(), 'mb-seed-'))) {
  const service = await createAppService({
    dataDir,
    mode: 'demo',
    secretStore: new MemorySecretStore(),
    logFile: null,
    logLevel: 'silent',
    demo: { autoplay: false, seed: 4 },
  });
  cleanup.push(() => service.stop());
  return { service, dataDir, sim: { url: service.simulatorUrl } as RunningSimulator };
}

/** The calendar's window as the grid asks for it (7 days back, 15 ahead). */
const gridWindow = (service: AppService) => {
  const now = Date.now();
  return service.api.listEventDates({
    from: new Date(now - 7 * DAY).toISOString(),
    to: new Date(now + 15 * DAY).toISOString(),
  });
};
const ids = (rows: EventDate[]) => rows.map((r) => r.id).sort();

describe('the demo’s first view on an empty data folder', () => {
  it('has rows before the service answers, and the backfill replaces them without duplicates', async () => {
    const { service, sim } = await demoOnEmptyFolder();
    expect(await gridWindow(service)).toEqual([]);
    // every calendar and news answer of the service held back 3 s
    await simJson(sim, 'POST', '/_sim/faults', { latencyMs: 3_000 });
    const answeredBefore = (await simJson<{ apiRequests: number }>(sim, 'GET', '/_sim/state'))
      .apiRequests;
    expect(answeredBefore).toBe(0);
    const started = service.start();
    const first = await gridWindow(service);
    // the service has not answered: the backfill is still at its first call
    const progress = (await service.api.getStatus()).backfill;
    expect(progress?.running).toBe(true);
    expect(progress?.done).toBe(0);
    expect(first.length).toBeGreaterThan(50);
    // the releases the service's own window holds, as its generator made them
    const generated = await simJson<EventDate[]>(sim, 'GET', '/_sim/event-dates');
    const generatedIds = new Set(generated.map((g) => g.id));
    expect(first.every((r) => generatedIds.has(r.id))).toBe(true);

    await simJson(sim, 'DELETE', '/_sim/faults');
    await started;
    await waitFor(
      async () => (await service.api.getStatus()).backfill?.running === false,
      'the backfill done',
      30_000,
    );
    const after = await gridWindow(service);
    // the same releases, each once
    expect(new Set(ids(after)).size).toBe(after.length);
    expect(ids(after)).toEqual(ids(first));
    const cached = (await service.api.getCacheInfo()).eventDates;
    expect(cached).toBeGreaterThanOrEqual(after.length);
  });

  it('is not seeded again over a cache that holds releases (the service’s data stays)', async () => {
    const { service, dataDir } = await demoOnEmptyFolder();
    await service.start();
    const before = await gridWindow(service);
    // a release the service moved: the cache has it, the seed must not bring the old one back
    const moved = before.find((r) => r.actual === null) as EventDate;
    await service.stop();
    const { service: again, sim } = await demoOnEmptyFolder(dataDir);
    // the restarted demo's world has this release an hour later: only a seed would say so
    await simJson(sim, 'PATCH', `/_sim/event-dates/${moved.id}`, {
      dateUtc: new Date(Date.parse(moved.dateUtc) + 3_600_000).toISOString(),
    });
    await simJson(sim, 'POST', '/_sim/faults', { latencyMs: 3_000 });
    const started = again.start();
    const rows = await gridWindow(again);
    expect(ids(rows)).toEqual(ids(before));
    expect(rows.find((r) => r.id === moved.id)?.dateUtc).toBe(moved.dateUtc);
    await simJson(sim, 'DELETE', '/_sim/faults');
    await started;
  });
});
