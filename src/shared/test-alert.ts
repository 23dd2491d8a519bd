/** The notification "Send test alert" raises: a HIGH print as a trader would see one. */
import type { NativeNotification } from './domain.js';

const TEST_ALERT_TITLE = 'Macrobell test alert';

export function testAlertNotification(): NativeNotification {
  return {
    title: TEST_ALERT_TITLE,
    body: 'US Nonfarm Payrolls: 275K vs 200K consensus — beat. (A test: nothing printed.)',
    target: { type: 'alerts' },
    alertIds: [],
    silent: false,
    volatility: 'HIGH',
    test: true,
  };
}
