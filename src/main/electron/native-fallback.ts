/**
 * Electron's fallback (the `fallback` push: the window acknowledged neither a toast nor a
 * sound in time, src/main/alerts/acknowledgements.ts): the OS notification again, this time
 * with the OS's sound (none in quiet hours), and the taskbar's attention. The OS's 'show'
 * is its acknowledgement: the receipt then names the system's notification; an OS that never
 * answers leaves the receipt saying no surface acknowledged it.
 */
import type { MacrobellService } from '../service-contract.js';
import { showNotification } from './notifications.js';
import type { WindowHost } from './window.js';

export function startNativeFallback(o: {
  service: Pick<MacrobellService, 'on' | 'api'>;
  host: Pick<WindowHost, 'attention' | 'show'>;
  icon?: string;
}): () => void {
  return o.service.on('fallback', (n) => {
    o.host.attention();
    showNotification(
      n,
      (target) => o.host.show(target),
      o.icon,
      (r) => {
        if (!r.shown || !n.deliveryId) return;
        const ack = { id: n.deliveryId, surface: 'native-notification' as const, at: Date.now() };
        void o.service.api.alertShown(ack).catch(() => undefined);
      },
      { sound: !n.silent },
    );
  });
}
