/** Alert history (live) and the rule editor's rules. */
import { owning } from './owned.js';
import { createStore } from 'zustand/vanilla';
import type { AlertRecord, AlertRules } from '../../../shared/domain.js';
import type { Bridge } from '../bridge/index.js';

export interface AlertsState {
  items: AlertRecord[];
  rules: AlertRules | null;
  load(): Promise<void>;
  markAllRead(): Promise<void>;
  markRead(id: number): Promise<void>;
  /** Pause notifications until `until` (ms), or resume with null. */
  pause(until: number | null): Promise<void>;
  saveRules(rules: AlertRules): Promise<void>;
}

export function createAlertsStore(bridge: Bridge) {
  const store = createStore<AlertsState>()((set, get) => ({
    items: [],
    rules: null,
    async load() {
      const [items, rules] = await Promise.all([
        bridge.api.listAlerts({ limit: 200 }),
        bridge.api.getAlertRules(),
      ]);
      set({ items, rules });
    },
    async markAllRead() {
      await bridge.api.markAlertsRead({});
      set({ items: get().items.map((a) => ({ ...a, read: true })) });
    },
    async markRead(id) {
      set({ items: get().items.map((a) => (a.id === id ? { ...a, read: true } : a)) });
      await bridge.api.markAlertsRead({ ids: [id] }).catch(() => undefined);
    },
    async pause(until) {
      set({ rules: await bridge.api.pauseAlerts({ until }) });
    },
    async saveRules(rules) {
      set({ rules: await bridge.api.setAlertRules(rules) });
    },
  }));
  // Another window marked alerts read or changed the rules: follow it.
  const offRead = bridge.on('alertsRead', ({ ids }) =>
    store.setState({
      items: store
        .getState()
        .items.map((a) => (ids === null || ids.includes(a.id) ? { ...a, read: true } : a)),
    }),
  );
  const offSettings = bridge.on('settings', (s) => {
    if (store.getState().rules !== null) store.setState({ rules: s.alertRules });
  });
  // A new alert, or one replaced in place (a figure the service never held, now the real
  // print or withdrawn): one row either way, on top.
  const offAlert = bridge.on('alert', (a) =>
    store.setState({
      items: [a, ...store.getState().items.filter((x) => x.id !== a.id)].slice(0, 500),
    }),
  );
  // Its alerts were just stamped "shown": their receipts read the same time as the panel.
  const offNotification = bridge.on('notification', (n) => {
    if (n.alertIds.length === 0) return;
    void bridge.api
      .listAlerts({ limit: 200 })
      .then((fresh) => {
        const byId = new Map(fresh.map((a) => [a.id, a]));
        store.setState({
          items: store.getState().items.map((a) => {
            const f = byId.get(a.id);
            return f && n.alertIds.includes(a.id) ? { ...a, receipt: f.receipt } : a;
          }),
        });
      })
      .catch(() => undefined);
  });
  return owning(store, [offRead, offSettings, offAlert, offNotification]);
}
