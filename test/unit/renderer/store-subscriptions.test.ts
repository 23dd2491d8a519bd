// @vitest-environment jsdom
/**
 * The window's stores keep every handle their push subscriptions return and end them all
 * on dispose: stores made again (a remount, the next test) leave nothing listening.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../../src/shared/domain.js';
import type { Bridge } from '../../../src/renderer/src/bridge/index.js';
import { createStores } from '../../../src/renderer/src/state/index.js';
import { ed, testBridge } from './harness.js';

afterEach(() => {
  delete (window as { speechSynthesis?: unknown }).speechSynthesis;
});

/** The test bridge with every subscription counted while it is live (pushes, connection, resync). */
function countingBridge() {
  const t = testBridge([ed(1)], {}, { kind: 'http' });
  const live = new Map<string, number>();
  /** Counts a subscription live until its handle is called (once). */
  const track = (name: string, off: () => void) => {
    live.set(name, (live.get(name) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      live.set(name, (live.get(name) ?? 0) - 1);
      off();
    };
  };
  const bridge: Bridge = {
    ...t.bridge,
    on: (event, l) => track(event, t.bridge.on(event, l)),
    onConnection: (l) => track('connection', t.bridge.onConnection(l)),
    onResync: () => track('resync', () => undefined),
  };
  const total = () => [...live.values()].reduce((a, b) => a + b, 0);
  return { ...t, bridge, live, total };
}

describe('the window stores', () => {
  it('end every push subscription they hold on dispose', () => {
    // a platform with speech: the squawk subscribes too
    Object.assign(window, { speechSynthesis: { speak: () => undefined } });
    const t = countingBridge();
    const stores = createStores(t.bridge, () => 0);
    expect(Object.fromEntries(t.live)).toEqual({
      status: 1,
      backfill: 1,
      settings: 2, // the app's and the alert rules'
      navigate: 1,
      connection: 1,
      alertsRead: 1,
      alert: 1,
      notification: 3, // the alerts' receipts, the toasts, the web banner
      changes: 3, // the calendar, the news, the squawk
      banner: 1,
      resync: 1,
    });
    stores.dispose();
    expect(t.total()).toBe(0);
    expect([...t.live.values()].every((n) => n === 0)).toBe(true);
  });

  it('hear no push after dispose', () => {
    const t = countingBridge();
    const stores = createStores(t.bridge, () => 0);
    const alert: AlertRecord = {
      id: 7,
      kind: 'released',
      title: 'NFP',
      body: '',
      createdAt: 0,
      read: false,
      target: { type: 'alerts' },
      late: false,
      receipt: null,
    };
    t.push('alert', alert);
    expect(stores.alerts.getState().items.map((a) => a.id)).toEqual([7]);
    stores.dispose();
    t.push('alert', { ...alert, id: 8 });
    expect(stores.alerts.getState().items.map((a) => a.id)).toEqual([7]);
  });
});
