/** App-wide state: status, settings, the current screen, host reachability. */
import { owning } from './owned.js';
import { createStore } from 'zustand/vanilla';
import type { AlertTarget, AppStatus, BackfillProgress, Settings } from '../../../shared/domain.js';
import type { SettingsPatch } from '../../../shared/settings-schema.js';
import type { Bridge, Connection } from '../bridge/index.js';

export type Screen = 'calendar' | 'news' | 'alerts' | 'settings';

export interface AppState {
  screen: Screen;
  status: AppStatus | null;
  settings: Settings | null;
  backfill: BackfillProgress | null;
  connection: Connection;
  /** The event whose detail panel is open. */
  eventId: string | null;
  /** The post open in the reader. */
  post: { id: string; culture: string } | null;
  error: string | null;
  go(screen: Screen): void;
  openEvent(eventId: string | null): void;
  openPost(p: { id: string; culture: string } | null): void;
  navigate(target: AlertTarget | { type: 'settings' }): void;
  load(): Promise<void>;
  /** The first load: started before the first render (state/boot.ts), shared by the mount. */
  boot(): Promise<void>;
  /** Read the status again: the core pushes a change of state, not every answer it gets. */
  refreshStatus(): Promise<void>;
  /**
   * Shown at once (a checkbox ticks on the click, not after the host's round trip, which
   * took up to 0.92 s on a busy 2-core machine), then the host's answer; undone, with the
   * host's message, when the host refuses it.
   */
  updateSettings(patch: SettingsPatch): Promise<void>;
  setError(message: string | null): void;
}

/**
 * The status to show next: the newer answer time of the two, so "Last answer 3m ago" never
 * turns into "4m ago" because a status read before a push lands after it. A switch between
 * demo and live data starts over.
 */
function latest(prev: AppStatus | null, next: AppStatus): AppStatus {
  const last = prev?.lastSyncAt ?? null;
  if (!prev || prev.demo !== next.demo || last === null) return next;
  return next.lastSyncAt !== null && next.lastSyncAt >= last ? next : { ...next, lastSyncAt: last };
}

/** Settings with patches still on their way to the host laid over them, oldest first. */
function withPending(settings: Settings, pending: readonly SettingsPatch[]): Settings {
  return pending.reduce<Settings>((s, p) => ({ ...s, ...p }) as Settings, settings);
}

/** The first run's promise, kept once it succeeded; after a failure the next call runs again. */
function keptOnceDone(run: () => Promise<void>): () => Promise<void> {
  let first: Promise<void> | null = null;
  return () =>
    (first ??= run().catch((err: unknown) => {
      first = null;
      throw err;
    }));
}

export function createAppStore(bridge: Bridge) {
  // Patches sent and not answered yet: an answer (or a push) from the host is shown with
  // them still laid over it, so a second quick click is not undone by the first answer.
  const pending: SettingsPatch[] = [];
  // The settings as the host last said they are (what a refused patch goes back to).
  let confirmed: Settings | null = null;
  const fromHost = (settings: Settings) => {
    confirmed = settings;
    return withPending(settings, pending);
  };
  // A load already on its way is shared: the boot starts one before the first render, and
  // the App's mount asks again.
  let loading: Promise<void> | null = null;
  const store = createStore<AppState>()((set, get) => ({
    screen: 'calendar',
    status: null,
    settings: null,
    backfill: null,
    connection: 'online',
    eventId: null,
    post: null,
    error: null,
    go: (screen) => set({ screen }),
    openEvent: (eventId) => set({ eventId }),
    openPost: (post) => set({ post }),
    navigate(target) {
      if (target.type === 'eventDate') set({ screen: 'calendar', eventId: target.eventId });
      else if (target.type === 'post')
        set({ screen: 'news', post: { id: target.postId, culture: target.culture } });
      else if (target.type === 'settings') set({ screen: 'settings' });
      else set({ screen: 'alerts' });
    },
    load() {
      loading ??= Promise.all([bridge.api.getStatus(), bridge.api.getSettings()])
        .then(([status, settings]) =>
          set((s) => ({
            status: latest(s.status, status),
            settings: fromHost(settings),
            backfill: status.backfill,
          })),
        )
        .finally(() => (loading = null));
      return loading;
    },
    // kept once it succeeded: the mount shares it even when it answered before the first render
    boot: keptOnceDone(() => get().load()),
    async refreshStatus() {
      const status = await bridge.api.getStatus();
      set((s) => ({ status: latest(s.status, status) }));
    },
    async updateSettings(patch) {
      pending.push(patch);
      const shown = get().settings;
      if (shown) set({ settings: { ...shown, ...patch } as Settings });
      const done = () => pending.splice(pending.indexOf(patch), 1);
      try {
        const settings = await bridge.api.updateSettings(patch);
        done();
        set({ settings: fromHost(settings), error: null });
      } catch (err) {
        done();
        if (confirmed) set({ settings: withPending(confirmed, pending) });
        set({ error: (err as Error).message });
      }
    },
    setError: (error) => set({ error }),
  }));
  return owning(store, [
    bridge.on('status', (status) => store.setState((s) => ({ status: latest(s.status, status) }))),
    bridge.on('backfill', (backfill) => store.setState({ backfill })),
    // A change made in another window (another browser tab): zone, clock, theme, rules.
    bridge.on('settings', (settings) => store.setState({ settings: fromHost(settings) })),
    bridge.on('navigate', (target) => store.getState().navigate(target)),
    bridge.onConnection((connection) => {
      store.setState({ connection });
      if (connection === 'online')
        void store
          .getState()
          .load()
          .catch(() => undefined);
    }),
  ]);
}
