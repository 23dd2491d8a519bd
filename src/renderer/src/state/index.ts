import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { Bridge } from '../bridge/index.js';
import { createAlertBannerStore, type AlertBannerState } from './alert-banner.js';
import { createAlertsStore, type AlertsState } from './alerts.js';
import { createAppStore, type AppState } from './app.js';
import { createCalendarStore, type CalendarState } from './calendar.js';
import { createNewsStore, type NewsState } from './news.js';
import { createSettingsStore, type SettingsState } from './settings.js';
import { startSquawk } from './squawk.js';
import { createToastsStore, type ToastsState } from './toasts.js';
import { DisposableStore, toDisposable, type Disposable } from '../../../shared/event.js';

export interface Stores {
  bridge: Bridge;
  app: StoreApi<AppState>;
  calendar: StoreApi<CalendarState>;
  news: StoreApi<NewsState>;
  alerts: StoreApi<AlertsState>;
  settings: StoreApi<SettingsState>;
  toasts: StoreApi<ToastsState>;
  alertBanner: StoreApi<AlertBannerState>;
  /** Ends every push subscription the stores hold (the window's stores made again). */
  dispose(): void;
}

export function createStores(bridge: Bridge, now?: () => number): Stores {
  const app = createAppStore(bridge);
  const alerts = createAlertsStore(bridge);
  const toasts = createToastsStore(bridge, app, alerts);
  const calendar = createCalendarStore(bridge, now);
  const news = createNewsStore(bridge);
  const alertBanner = createAlertBannerStore(bridge, app, alerts, toasts);
  const subscriptions = new DisposableStore();
  const owned: Disposable[] = [app, alerts, toasts, calendar, news, alertBanner];
  owned.forEach((s) => subscriptions.add(s));
  const stores: Stores = {
    bridge,
    app,
    calendar,
    news,
    alerts,
    settings: createSettingsStore(bridge),
    toasts,
    alertBanner,
    dispose: () => subscriptions.dispose(),
  };
  subscriptions.add(toDisposable(reloadOnModeSwitch(stores)));
  // The push stream could not replay what it missed: read everything again.
  const offResync = bridge.onResync?.(() => {
    void app
      .getState()
      .load()
      .catch(() => undefined);
    reloadShown(stores);
  });
  if (offResync) subscriptions.add(toDisposable(offResync));
  subscriptions.add(toDisposable(startSquawk(bridge, app)));
  return stores;
}

/** Demo ⇄ live (keys saved or removed): another database, so everything shown is reloaded. */
function reloadOnModeSwitch(stores: Stores): () => void {
  let demo: boolean | null = null;
  return stores.app.subscribe(({ status }) => {
    if (!status) return;
    const switched = demo !== null && demo !== status.demo;
    demo = status.demo;
    if (!switched) return;
    // The calendar fetches its categories once: the other service's come with the next load.
    stores.calendar.setState({ categories: [] });
    reloadShown(stores);
  });
}

/** Read again what the window shows: the settings, the calendar, the news, the alerts. */
function reloadShown(stores: Stores): void {
  // The status itself came with this push; the settings shown differ (demo overrides).
  const settings = () =>
    stores.bridge.api.getSettings().then((s) => stores.app.setState({ settings: s }));
  for (const load of [
    settings,
    stores.calendar.getState().load,
    () => stores.news.getState().load(),
    stores.alerts.getState().load,
  ])
    void load().catch(() => undefined);
}

export const StoresContext = createContext<Stores | null>(null);

export function useStores(): Stores {
  const s = useContext(StoresContext);
  if (!s) throw new Error('StoresContext missing');
  return s;
}

export function useApp<T>(selector: (s: AppState) => T): T {
  return useStore(useStores().app, selector);
}
export function useCalendar<T>(selector: (s: CalendarState) => T): T {
  return useStore(useStores().calendar, selector);
}
export function useNews<T>(selector: (s: NewsState) => T): T {
  return useStore(useStores().news, selector);
}
export function useAlerts<T>(selector: (s: AlertsState) => T): T {
  return useStore(useStores().alerts, selector);
}
export function useSettings<T>(selector: (s: SettingsState) => T): T {
  return useStore(useStores().settings, selector);
}
export function useAlertBanner<T>(selector: (s: AlertBannerState) => T): T {
  return useStore(useStores().alertBanner, selector);
}
export function useToasts<T>(selector: (s: ToastsState) => T): T {
  return useStore(useStores().toasts, selector);
}
