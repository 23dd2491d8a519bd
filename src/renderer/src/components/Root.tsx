/**
 * The window's React tree: the app (its shell, each screen in a boundary of its own) and,
 * beside it rather than inside, the toasts and their sounds — a failure in the app leaves
 * the alerts running.
 */
import { AlertLayer } from './AlertLayer.js';
import { App } from './App.js';
import { ErrorBoundary } from './ErrorBoundary.js';

export function Root() {
  return (
    <>
      <ErrorBoundary name="app" variant="screen">
        <App />
      </ErrorBoundary>
      <AlertLayer />
    </>
  );
}
