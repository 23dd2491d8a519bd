/** Native notifications from the alerts engine; a click opens the window on the target. */
import { Notification } from 'electron';
import type { NativeNotification } from '../../shared/domain.js';

export function showNotification(
  n: NativeNotification,
  onClick: (target: NativeNotification['target']) => void,
  icon?: string,
): boolean {
  if (!Notification.isSupported()) return false;
  const notification = new Notification({
    title: n.title,
    body: n.body,
    silent: n.silent,
    ...(icon ? { icon } : {}),
  });
  notification.on('click', () => onClick(n.target));
  notification.show();
  return true;
}
