/**
 * Quitting while a slow service backfills: the app used to wait for every remaining window,
 * post page and event (about 40 s with answers 1 s late) before it let go. It now stops after
 * the request in flight: no window is read after stop, nothing reports a failure, and the
 * next start backfills in full. The real app core against the simulator.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, waitFor, type CoreHarness } from './harness.js';

let h: CoreHarness;
beforeAll(async () => {
  h = await startCore();
});
afterAll(() => h?.close());

describe('stopping the app during a backfill', () => {
  it('ends after the request in flight, reports no failure, and the next start completes it', async () => {
    h.sim.state.faults.latencyMs = 300;
    const starting = h.service.start();
    await waitFor(
      () => h.events.backfill.some((p) => p.running && p.phase.startsWith('Calendar')),
      'the backfill to read the calendar',
    );
    const seenAtStop = h.events.backfill.length;
    await h.service.stop();
    await starting;
    // no step after the quit: the request in flight ended it
    expect(h.events.backfill).toHaveLength(seenAtStop);
    const last = h.events.backfill.at(-1);
    // it stopped part way: still on the calendar windows, never "Up to date" nor "Failed"
    expect(last?.running).toBe(true);
    expect(last?.phase).toMatch(/^Calendar/);
    expect(last!.done).toBeLessThan(last!.total);
    expect(h.events.backfill.some((p) => p.phase === 'Up to date' || p.phase === 'Failed')).toBe(
      false,
    );
    const log = readFileSync(join(h.dataDir, 'logs', 'macrobell.log'), 'utf8');
    expect(log).not.toMatch(/backfill failed|event details unavailable/);

    // the data folder is whole: a new start reads everything
    h.sim.state.faults.latencyMs = 0;
    const again = await startCore({ sim: h.sim, dataDir: h.dataDir });
    try {
      await again.service.start();
      expect(again.events.backfill.at(-1)).toMatchObject({ running: false, phase: 'Up to date' });
    } finally {
      await again.service.stop();
    }
  });
});
