import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { Bridge } from '../bridge/index.js';
import { createAlertsStore, type AlertsState } from './alerts.js';
import { createAppStore, type AppState } from './app.js';
import { createCalendarStore, type CalendarState } from './calendar.js';
import { createNewsStore, type NewsState } from './news.js';

export interface Stores {
  bridge: Bridge;
  app: StoreApi<AppState>;
  calendar: StoreApi<CalendarState>;
  news: StoreApi<NewsState>;
  alerts: StoreApi<AlertsState>;
}

export function createStores(bridge: Bridge, now?: () => number): Stores {
  return {
    bridge,
    app: createAppStore(bridge),
    calendar: createCalendarStore(bridge, now),
    news: createNewsStore(bridge),
    alerts: createAlertsStore(bridge),
  };
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
