/**
 * Toasts and their sounds, rendered beside the app's screens (main.tsx), each in a boundary
 * of its own: a screen that throws leaves them running, and if they throw the next
 * notification tries again (the core's fallback shows the one they missed).
 */
import { useToasts } from '../state/index.js';
import { ErrorBoundary } from './ErrorBoundary.js';
import { Toasts } from './Toasts.js';

export function AlertLayer() {
  const latest = useToasts((s) => s.items.at(-1)?.id ?? 0);
  return (
    <ErrorBoundary name="toasts" variant="layer" resetKey={latest}>
      <Toasts />
    </ErrorBoundary>
  );
}
