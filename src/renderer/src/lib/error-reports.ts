/**
 * The renderer's failures reach the core's log (`reportRendererError`): uncaught errors,
 * unhandled rejections, and what the error boundaries catch with React's component stack.
 * The page sends at most a few a minute itself (the core limits them again), so a render
 * loop that throws cannot flood the host.
 */
import type { RendererErrorReport } from '../../../shared/ipc.js';
import type { Bridge } from '../bridge/index.js';

const PER_MINUTE = 5;
const clip = (s: string | undefined, max: number) =>
  s === undefined ? undefined : s.slice(0, max);

let bridgeForReports: Pick<Bridge, 'api'> | null = null;
let windowStart = -Infinity;
let sent = 0;

/** Send one report (boundaries call this; so do the window's listeners). */
export function reportRendererError(report: RendererErrorReport): void {
  const now = Date.now();
  if (now - windowStart >= 60_000) {
    windowStart = now;
    sent = 0;
  }
  if (!bridgeForReports || sent >= PER_MINUTE) return;
  sent++;
  const bounded: RendererErrorReport = {
    ...report,
    message: report.message.slice(0, 2_000),
    stack: clip(report.stack, 8_000),
    componentStack: clip(report.componentStack, 8_000),
  };
  void bridgeForReports.api.reportRendererError(bounded).catch(() => undefined);
}

/** A push the bridge dropped as malformed (`bridge/push-check.ts`), in the core's log. */
export function reportBadPush(problem: string): void {
  reportRendererError({ kind: 'error', message: `The window ${problem}` });
}

const messageOf = (value: unknown): { message: string; stack?: string } =>
  value instanceof Error
    ? { message: value.message || value.name, stack: value.stack }
    : { message: String(value) };

/** Listen to the window's uncaught errors and rejections, for the page's lifetime. */
export function startErrorReports(bridge: Pick<Bridge, 'api'>): void {
  bridgeForReports = bridge;
  window.addEventListener('error', (e) => {
    reportRendererError({ kind: 'error', ...messageOf(e.error ?? e.message) });
  });
  window.addEventListener('unhandledrejection', (e) => {
    reportRendererError({ kind: 'unhandledrejection', ...messageOf(e.reason) });
  });
}
