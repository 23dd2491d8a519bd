/**
 * Web mode's half of "Send test alert": the browser is the OS here. Asks it to show the
 * test notification and reports what it did, with the plain fix when it will not.
 */
import type { NativeNotification, TestAlertResult } from '../../../shared/domain.js';
import { browserPermission } from './browser-notifications.js';

const BANNER_NOTE = 'Alerts show as a banner with sound in this tab until this is fixed.';

function blocked(label: string, fix: string): TestAlertResult {
  return {
    outcome: 'suppressed',
    summary: `The browser will not show notifications (${label.toLowerCase()}). ${BANNER_NOTE}`,
    checks: [{ id: 'browser-permission', label, ok: false, fix, suppresses: true }],
    banner: true,
  };
}

/** Shows `n` as a browser notification and waits for the browser's 'show' or 'error'. */
export async function browserTestAlert(
  n: NativeNotification,
  enabled: boolean,
  confirmMs = 3_000,
): Promise<TestAlertResult> {
  const permission = browserPermission();
  if (permission === 'unsupported')
    return blocked(
      'Browser notifications available',
      'This browser has none: the toast and the banner stand in.',
    );
  if (permission !== 'granted')
    return blocked(
      'Browser notifications allowed',
      permission === 'denied'
        ? 'This site is blocked: allow notifications in the site settings (the icon left of the address), then reload.'
        : 'Press "Allow browser notifications" below and accept the browser\'s question.',
    );
  if (!enabled)
    return blocked(
      'Browser notifications on',
      'Tick "Browser notifications while this tab is in the background" below.',
    );
  const check = {
    id: 'browser-permission',
    label: 'Browser notifications allowed',
    ok: true,
    suppresses: true,
  };
  const outcome = await new Promise<'shown' | 'failed'>((resolve) => {
    try {
      const shown = new Notification(n.title, { body: n.body, silent: true, icon: './bell.svg' });
      shown.onshow = () => resolve('shown');
      shown.onerror = () => resolve('failed');
      setTimeout(() => resolve('shown'), confirmMs); // some browsers never say
    } catch {
      resolve('failed');
    }
  });
  return outcome === 'shown'
    ? { outcome, summary: 'The browser showed the test alert.', checks: [check], banner: false }
    : {
        outcome,
        summary: `The browser refused the test alert. ${BANNER_NOTE}`,
        checks: [check],
        banner: true,
      };
}
