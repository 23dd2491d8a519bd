/**
 * Settings that restart live updates (relay URL, cultures, polling) may change while the
 * first backfill runs, and several at once: one live source runs afterwards, on the last
 * URL, and none after stop (issue #42: a second relay stream from one desktop, never
 * stopped, retrying against a closed database). The real app core against the simulator,
 * with a counting stand-in for the relay stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayConsumerFactory } from '../../../src/main/sync/live-source.js';
import { startCore, waitFor, type CoreHarness } from './harness.js';

let h: CoreHarness;
/** Live relay streams by the URL they were opened on (started and not stopped). */
const live: string[] = [];
const relayConsumer: RelayConsumerFactory = (o) => {
  let running = false;
  return {
    start: () => {
      running = true;
      live.push(o.url);
    },
    stop: () => {
      if (running) live.splice(live.indexOf(o.url), 1);
      running = false;
    },
  };
};

beforeAll(async () => {
  h = await startCore({ service: { relayConsumer } });
});
afterAll(() => h?.close());

describe('restarts of live updates during the first backfill', () => {
  it('leave exactly one relay stream, on the last URL, and none after stop', async () => {
    // A slow service: the first backfill is still running while the settings change.
    h.sim.state.faults.latencyMs = 150;
    const starting = h.service.start();
    await waitFor(() => h.events.backfill.some((p) => p.running), 'the first backfill');
    await Promise.all([
      h.service.api.updateSettings({ relayUrl: 'http://127.0.0.1:9/relay-a' }),
      h.service.api.updateSettings({ cultures: ['en-US', 'de-DE'] }),
      h.service.api.updateSettings({ relayUrl: 'http://127.0.0.1:9/relay-b' }),
    ]);
    await starting;
    h.sim.state.faults.latencyMs = 0;
    expect(live).toEqual(['http://127.0.0.1:9/relay-b']);

    await h.service.api.updateSettings({ relayUrl: null });
    expect(live).toEqual([]);
    await h.service.api.updateSettings({ relayUrl: 'http://127.0.0.1:9/relay-c' });
    expect(live).toEqual(['http://127.0.0.1:9/relay-c']);
    await h.service.stop();
    expect(live).toEqual([]);
  });
});
