/** The alerts' requests: history, read marks, rules, pause, the test alert. */
import type { AppApi } from '../../../shared/ipc.js';
import { testAlertNotification } from '../../../shared/test-alert.js';
import { summarize } from '../../notify/os-checks.js';
import type { ApiTableDeps } from './deps.js';

export function alertsApi(
  d: Pick<
    ApiTableDeps,
    'store' | 'effective' | 'settings' | 'status' | 'notify' | 'onAlertsRead' | 'acknowledge'
  >,
): Pick<
  AppApi,
  | 'listAlerts'
  | 'markAlertsRead'
  | 'getAlertRules'
  | 'setAlertRules'
  | 'pauseAlerts'
  | 'sendTestAlert'
  | 'dismissAlertBanner'
  | 'alertShown'
> {
  const { store, effective } = d;
  return {
    listAlerts: async (q) => store.listAlerts(q),
    markAlertsRead: async ({ ids }) => {
      store.markAlertsRead(ids);
      d.status.push();
      d.onAlertsRead(ids ?? null);
      return null;
    },
    getAlertRules: async () => effective().alertRules,
    setAlertRules: async (rules) => d.settings.setRules(rules),
    pauseAlerts: async ({ until }) =>
      d.settings.setRules({ ...effective().alertRules, pausedUntil: until }),
    // The desktop shell adds what the OS did (src/main/electron/native-alerts.ts); web mode
    // has only the window's toast here (the browser's notification is the renderer's).
    sendTestAlert: async () => {
      d.notify(testAlertNotification());
      return { outcome: 'in-app', summary: summarize('in-app', []), checks: [], banner: false };
    },
    dismissAlertBanner: async () => null, // the desktop shell drops always-on-top
    alertShown: async (ack) => {
      d.acknowledge(ack);
      return null;
    },
  };
}
