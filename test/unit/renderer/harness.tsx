/** The renderer under jsdom: an in-memory bridge answering from fixtures, and the App mounted on it. */
import { render } from '@testing-library/react';
import {
  DEFAULT_SETTINGS,
  type AlertRules,
  type AppStatus,
  type EventDate,
  type Settings,
} from '../../../src/shared/domain.js';
import type { AppApi, PushEvent, PushPayloads } from '../../../src/shared/ipc.js';
import { apiFrom, type Bridge } from '../../../src/renderer/src/bridge/index.js';
import { createStores, StoresContext } from '../../../src/renderer/src/state/index.js';
import { Root } from '../../../src/renderer/src/components/Root.js';
import { eventDateFixture, statusFixture } from '../../fixtures/domain.js';

// jsdom has no layout: a ResizeObserver that never fires (the calendar then assumes 600 px).
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

export const now = Date.now();
export const ed = (i: number, over: Partial<EventDate> = {}): EventDate =>
  eventDateFixture({
    id: `ed${i}`,
    eventId: `e${i}`,
    dateUtc: new Date(now + (i - 5) * 3_600_000).toISOString(),
    name: `Indicator ${i}`,
    ...over,
  });

export const status: AppStatus = statusFixture({
  lastSyncAt: now,
  credentials: {
    configured: true,
    maskedPublicKey: 'pk-A…yz',
    relayTokenConfigured: false,
    keychainAvailable: true,
    keychainError: null,
  },
});

export type Answers = Partial<Record<keyof AppApi, (input: unknown) => unknown>>;

export interface BridgeOptions {
  /** Which host the renderer believes it runs in (default: 'test'). */
  kind?: Bridge['kind'];
  /** What getStatus answers (default: `status` above). */
  status?: AppStatus;
  /** Settings over the defaults. */
  settings?: Partial<Settings>;
  /** The stores' clock (default: the fixed `now` the fixtures are built around). */
  clock?: () => number;
}

/** An in-memory Bridge for component tests: records calls, answers from fixtures, emits pushes. */
export function testBridge(rows: EventDate[], extra: Answers = {}, opts: BridgeOptions = {}) {
  const calls: [string, unknown][] = [];
  const listeners = new Map<PushEvent, Set<(p: unknown) => void>>();
  const current = opts.status ?? status;
  let settings: Settings = { ...structuredClone(DEFAULT_SETTINGS), ...opts.settings };
  const answers: Answers = {
    getStatus: () => current,
    getSettings: () => settings,
    updateSettings: (patch) => (settings = { ...settings, ...(patch as object) }),
    listEventDates: () => rows,
    listCategories: () => [{ id: 'c1', name: 'Labor Market' }],
    getCredentials: () => current.credentials,
    getCacheInfo: () => ({
      dataDir: '/data',
      databaseBytes: 1_048_576,
      eventDates: rows.length,
      posts: 3,
    }),
    listPosts: () => ({ items: [], page: 1, pageSize: 30, total: 0 }),
    listAlerts: () => [],
    getAlertRules: () => settings.alertRules,
    setAlertRules: (r) => (settings = { ...settings, alertRules: r as AlertRules }).alertRules,
    ...extra,
  };
  const bridge: Bridge = {
    kind: opts.kind ?? 'test',
    api: apiFrom(async (method, input) => {
      calls.push([method, input]);
      return answers[method as keyof AppApi]?.(input) ?? null;
    }),
    on(event, l) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(l as (p: unknown) => void);
      return () => set.delete(l as (p: unknown) => void);
    },
    onConnection: () => () => undefined,
  };
  const push = <E extends PushEvent>(e: E, p: PushPayloads[E]) =>
    listeners.get(e)?.forEach((l) => l(p));
  return { bridge, calls, push };
}

/** The whole App on a test bridge, as the user sees it at launch. */
export function mount(rows: EventDate[], extra: Answers = {}, opts: BridgeOptions = {}) {
  const t = testBridge(rows, extra, opts);
  const stores = createStores(t.bridge, opts.clock ?? (() => now));
  render(
    <StoresContext.Provider value={stores}>
      <Root />
    </StoresContext.Provider>,
  );
  return { ...t, stores };
}
