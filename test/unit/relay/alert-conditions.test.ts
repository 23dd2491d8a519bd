/**
 * One Redis outage is one alert for the desk: a node whose webhooks were refused while the
 * store was away — between two checks, or until it came back — does not also post "webhooks
 * are failing to be stored" (the desk-in-a-box test caught the node that does not speak for
 * the desk posting it, and "stored again", on every outage). Failures with the store up are
 * still posted.
 */
import { describe, expect, it } from 'vitest';
import type { EventLog, LogHealth } from '../../../src/relay/log/event-log.js';
import type { AdminSnapshot } from '../../../src/relay/desk-ops/admin/admin-view.js';
import { alertConditions } from '../../../src/relay/desk-ops/alerts/alert-conditions.js';

/** The parts of a Redis log the conditions read, moved by hand. */
function store() {
  const log = {
    backend: 'redis' as const,
    storeFailures: 0,
    outages: 0,
    down: null as string | null,
    health(): LogHealth {
      return log.down === null ? { ok: true } : { ok: false, reason: log.down };
    },
  };
  return log;
}

const snapshot = async (): Promise<AdminSnapshot> => ({
  generatedAt: 0,
  head: '0',
  lagThresholdSeconds: 30,
  traders: [],
  nodes: [],
  releases: [],
  releasesError: null,
  deliveries: null,
});

function conditions(log: ReturnType<typeof store>, node: string) {
  const next = alertConditions({
    events: log as unknown as EventLog,
    snapshot,
    leadMinutes: 10,
    node: () => node,
    now: () => 0,
  });
  return async () => (await next([])).map((c) => c.kind);
}

describe('store alerts of one outage', () => {
  it('an outage between two checks: its refused webhooks are not "failing to be stored"', async () => {
    const log = store();
    const check = await conditions(log, 'node-b');
    expect(await check()).toEqual([]);
    log.down = 'the relay lost its connection to Redis';
    log.outages++;
    log.storeFailures += 81;
    log.down = null; // back before the next check
    expect(await check()).toEqual([]);
  });

  it('refused until the store came back, after a check that saw it down: not "failing" either', async () => {
    const log = store();
    const check = await conditions(log, 'node-a');
    log.down = 'the relay lost its connection to Redis';
    log.outages++;
    expect(await check()).toEqual(['store_down']);
    log.storeFailures += 12; // refused until the store took webhooks again
    log.down = null;
    expect(await check()).toEqual([]);
  });

  it('failures with the store up are posted', async () => {
    const log = store();
    const check = await conditions(log, 'node-a');
    log.storeFailures += 3;
    expect(await check()).toEqual(['ingest_failing']);
    expect(await check()).toEqual([]);
  });
});
