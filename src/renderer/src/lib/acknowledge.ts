/**
 * The renderer tells the core a surface showed a notification (`alertShown`): the core owns
 * the alert until then, and falls back without it (src/main/alerts/acknowledgements.ts).
 * Only the core's own notifications carry a `deliveryId`; copies the page makes (the test
 * alert's preview) have none and acknowledge nothing.
 */
import type { AlertSurface, NativeNotification } from '../../../shared/domain.js';
import type { Bridge } from '../bridge/index.js';
import { testFault } from './test-faults.js';

export function acknowledge(
  bridge: Pick<Bridge, 'api'>,
  n: Pick<NativeNotification, 'deliveryId'>,
  surface: AlertSurface,
): void {
  if (!n.deliveryId || testFault('no-ack')) return;
  // A lost acknowledgement costs a fallback that finds the toast on screen and says so again.
  void bridge.api.alertShown({ id: n.deliveryId, surface, at: Date.now() }).catch(() => undefined);
}
