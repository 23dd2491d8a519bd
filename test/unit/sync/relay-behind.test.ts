/**
 * "Live — relay behind" (#43 item 3): the relay's heartbeats carry its head and how long its
 * store has been silent; the app calls the node behind when the store is silent for
 * RELAY_BEHIND_MS, or when the head stays past what reached it for as long.
 */
import { describe, expect, it } from 'vitest';
import { deriveConnection } from '../../../src/main/sync/connection-state.js';
import { RELAY_BEHIND_MS, RelayBehindWatch } from '../../../src/main/sync/relay-behind.js';
import { connectionLabel, connectionTone } from '../../../src/shared/connection.js';

const beat = (lastId: string, storeSilentMs = 0) => JSON.stringify({ lastId, storeSilentMs });

describe('relay behind', () => {
  it('is behind when the head stays past what arrived for RELAY_BEHIND_MS, not before', () => {
    const watch = new RelayBehindWatch();
    expect(watch.heartbeat(beat('1700000000000-5'), '1700000000000-5', 0)).toBeNull();
    expect(watch.heartbeat(beat('1700000000000-6'), '1700000000000-5', 1_000)).toBeNull();
    expect(watch.heartbeat(beat('1700000000000-6'), '1700000000000-5', RELAY_BEHIND_MS)).toBeNull();
    expect(
      watch.heartbeat(beat('1700000000000-6'), '1700000000000-5', 1_000 + RELAY_BEHIND_MS),
    ).toBe('it holds events that have not reached this app for 10 s');
    // the events arrive: caught up at once
    expect(watch.heartbeat(beat('1700000000000-6'), '1700000000000-6', 12_000)).toBeNull();
  });

  it("is behind when the node's store has not answered it for RELAY_BEHIND_MS", () => {
    const watch = new RelayBehindWatch();
    expect(watch.heartbeat(beat('42', RELAY_BEHIND_MS - 1), '42', 0)).toBeNull();
    expect(watch.heartbeat(beat('42', 12_400), '42', 1_000)).toBe(
      'its store has not answered it for 12 s',
    );
  });

  it("ignores a heartbeat it cannot read (an older relay's comment-only heartbeat says nothing)", () => {
    const watch = new RelayBehindWatch();
    expect(watch.heartbeat('not json', '1', 0)).toBeNull();
    expect(
      watch.heartbeat(JSON.stringify({ lastId: 'x y', storeSilentMs: 99_000 }), '1', 0),
    ).toBeNull();
  });

  it('shows "Live — relay behind" with why, degraded, while the stream is open', () => {
    const behind = deriveConnection({
      transport: 'relay',
      health: { lastOkAt: 1_000, failingSince: null, error: null },
      relay: {
        connected: true,
        downSince: null,
        error: null,
        behind: 'its store has not answered it for 12 s',
      },
      webhooksLateSince: null,
      startedAt: 0,
      lastDeliveryAt: null,
      now: 20_000,
    });
    expect(behind).toMatchObject({ state: 'behind', since: 20_000 });
    expect(behind.reason).toBe(
      'The relay node is behind (its store has not answered it for 12 s); the safety net polls every release you are alerted to',
    );
    expect(connectionLabel(behind, false)).toBe('Live — relay behind');
    expect(connectionTone(behind)).toBe('degraded');
  });
});
