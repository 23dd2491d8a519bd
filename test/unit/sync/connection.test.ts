/** The connection state's rules, and the wake detector, on injected clocks. */
import { describe, expect, it } from 'vitest';
import { isShallow } from '../../../src/main/sync/notification.js';
import {
  ConnectionTracker,
  deriveConnection,
  type ConnectionFacts,
} from '../../../src/main/sync/connection-state.js';
import { DeliveryExpiry } from '../../../src/main/sync/delivery-expiry.js';
import { ServiceHealth } from '../../../src/main/sync/service-health.js';
import { HttpError } from '../../../src/node/http/client.js';
import { NotFoundError } from '../../../src/node/service/errors.js';
import { ManualClock } from '../../support/manual-clock.js';
import { WakeDetector, TICK_MS } from '../../../src/main/sync/wake-detector.js';
import { connectionLabel } from '../../../src/shared/connection.js';

const facts = (over: Partial<ConnectionFacts> = {}): ConnectionFacts => ({
  transport: 'relay',
  health: { lastOkAt: 1_000, failingSince: null, error: null },
  relay: { connected: true, downSince: null, error: null },
  webhooksLateSince: null,
  startedAt: 0,
  lastDeliveryAt: null,
  now: 10_000,
  ...over,
});

describe('connection state', () => {
  it('is never Offline while requests succeed, and never Live while the service fails', () => {
    expect(deriveConnection(facts()).state).toBe('live');
    const failing = deriveConnection(
      facts({ health: { lastOkAt: 1_000, failingSince: 2_000, error: 'HTTP 503' } }),
    );
    expect(failing).toMatchObject({ state: 'offline', reason: 'HTTP 503', since: 2_000 });
  });

  it('says "API unavailable", not offline, while the API fails but webhooks still arrive', () => {
    const health = { lastOkAt: 1_000, failingSince: 2_000, error: 'The service answered HTTP 503' };
    const carried = deriveConnection(facts({ health, lastDeliveryAt: 9_000 }));
    expect(carried).toMatchObject({ state: 'apiDown', since: 2_000 });
    expect(carried.reason).toBe(
      'The service answered HTTP 503; webhooks still arrive, so prints still alert',
    );
    expect(connectionLabel(carried, false)).toBe('Live — API unavailable');
    // the last webhook came before the API failed: nothing says they still arrive
    expect(deriveConnection(facts({ health, lastDeliveryAt: 1_500 })).state).toBe('offline');
    // webhooks long gone, or the relay stream down: offline is the truth
    const stale = facts({ health, lastDeliveryAt: 9_000, now: 9_000 + 6 * 60_000 });
    expect(deriveConnection(stale).state).toBe('offline');
    const relayDown = { connected: false, downSince: 8_000, error: null };
    const down = (now: number) =>
      deriveConnection(facts({ health, lastDeliveryAt: 9_000, relay: relayDown, now })).state;
    // a re-open to retry a notification the API could not complete is a blip…
    expect(down(9_000)).toBe('apiDown');
    // …a stream down for longer is not carrying anything
    expect(down(19_000)).toBe('offline');
  });

  it('turns "API unavailable" into Offline on its own when webhooks stop, with no other update', () => {
    const clock = new ManualClock(9_000);
    const health = { lastOkAt: 1_000, failingSince: 2_000, error: 'HTTP 503' };
    const shown: string[] = [];
    // What the status bar shows each time the engine says the status changed.
    const expiry = new DeliveryExpiry(clock, () =>
      shown.push(deriveConnection(facts({ health, lastDeliveryAt: 9_000, now: clock.now })).state),
    );
    expiry.arm(); // a webhook at 9 000 while the API fails
    clock.advance(4 * 60_000);
    expect(shown).toEqual([]);
    clock.advance(60_000 + 1);
    expect(shown).toEqual(['offline']);
    // a newer webhook pushes the edge out; stopping cancels it
    expiry.arm();
    expiry.stop();
    clock.advance(10 * 60_000);
    expect(shown).toEqual(['offline']);
  });

  it('keeps one reason while the calendar and the news API fail alike', () => {
    const health = new ServiceHealth(() => 1_000);
    const fail = (api: string) =>
      health.recordFailure(new HttpError(503, `https://svc/${api}/v1/x`, '', null, {}));
    const reasons = new Set<string | null>();
    for (const api of ['calendar', 'news', 'calendar', 'news']) {
      fail(api);
      reasons.add(health.get().error);
    }
    expect([...reasons]).toEqual(['The calendar service answered HTTP 503']);
    health.recordFailure(new HttpError(429, 'https://svc/news/v1/x', '', null, {}));
    expect(health.get().error).toBe('The news service asks us to slow down (HTTP 429)');
  });

  it('says reconnecting while the relay stream is down, late while webhooks are missing', () => {
    const down = deriveConnection(
      facts({ relay: { connected: false, downSince: 5_000, error: 'HTTP 502' } }),
    );
    expect(down).toMatchObject({ state: 'reconnecting', since: 5_000 });
    expect(down.reason).toMatch(/HTTP 502.*polled/);
    const late = deriveConnection(facts({ webhooksLateSince: 7_000 }));
    expect(late).toMatchObject({ state: 'late', since: 7_000 });
    expect(connectionLabel(late, false)).toBe('Live — webhooks late');
    // polling has no webhooks to be late
    expect(
      deriveConnection(facts({ transport: 'polling', relay: null, webhooksLateSince: 7_000 }))
        .state,
    ).toBe('live');
  });

  it('keeps "since" while the state holds and dates a return to live from when it was seen', () => {
    const t = new ConnectionTracker();
    const offline = (at: number) =>
      deriveConnection(facts({ health: { lastOkAt: 1, failingSince: at, error: 'x' } }));
    expect(t.update(offline(10), 10).since).toBe(10);
    expect(t.update(offline(10), 20).since).toBe(10);
    expect(t.update(deriveConnection(facts()), 30)).toMatchObject({ state: 'live', since: 30 });
  });

  it('learns health from outcomes: an answer about the data is not an outage', () => {
    const h = new ServiceHealth(() => 5);
    h.recordFailure(new NotFoundError('gone'));
    expect(h.get()).toMatchObject({ lastOkAt: 5, failingSince: null });
    h.recordFailure(new HttpError(503, 'https://calendar.example/x', '', null, {}));
    expect(h.failing).toBe(true);
    const seen: boolean[] = [];
    h.onChange((_, recovered) => seen.push(recovered));
    h.recordOk();
    expect(seen).toEqual([true]);
  });
});

describe('wake detector', () => {
  it('fires when the wall clock moves much further than the monotonic clock', () => {
    let wall = 1_000_000;
    let mono = 0;
    const jumps: number[] = [];
    const d = new WakeDetector({
      wallNow: () => wall,
      monoNow: () => mono,
      timers: { setTimeout: () => null, clearTimeout: () => undefined },
      onJump: (ms) => jumps.push(ms),
    });
    d.start();
    wall += TICK_MS;
    mono += TICK_MS;
    d.check();
    expect(jumps).toEqual([]);
    // two hours asleep: the wall clock moved, the monotonic one did not
    wall += 2 * 3_600_000;
    mono += 10;
    d.check();
    expect(jumps).toHaveLength(1);
    expect(jumps[0]).toBeGreaterThan(3_600_000);
  });
});

describe('payload depth', () => {
  it('refuses a 20,000-level body without recursing', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    expect(isShallow({ type: 'x', nested: deep })).toBe(false);
    expect(isShallow({ type: 'eventDate_updated', changes: [{ key: 'actual', value: 1 }] })).toBe(
      true,
    );
  });
});
