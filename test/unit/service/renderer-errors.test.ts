/**
 * The renderer's failures in the core's log (src/main/service/renderer-errors.ts): each
 * report is written with what the page said (the boundary's component stack included), at
 * most ten a minute; the next one written says how many were dropped meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { rendererErrorLog } from '../../../src/main/service/renderer-errors.js';
import type { RendererErrorReport } from '../../../src/shared/ipc.js';

function logged() {
  const lines: { obj: { renderer: RendererErrorReport; droppedBefore: number }; msg: string }[] =
    [];
  const logger = {
    error: (obj: unknown, msg?: string) =>
      void lines.push({ obj: obj as (typeof lines)[0]['obj'], msg: msg ?? '' }),
  };
  return { lines, logger };
}

describe('renderer errors in the log', () => {
  it('writes each report with its component stack', () => {
    const { lines, logger } = logged();
    const log = rendererErrorLog(logger as never, () => 0);
    const report: RendererErrorReport = {
      kind: 'boundary',
      message: 'test fault: calendar-throws',
      componentStack: '\n    at CalendarScreen\n    at ErrorBoundary',
      screen: 'calendar',
    };
    log(report);
    expect(lines).toEqual([
      { obj: { renderer: report, droppedBefore: 0 }, msg: 'renderer boundary' },
    ]);
  });

  it('a page throwing in a loop writes ten a minute, then says how many it dropped', () => {
    const { lines, logger } = logged();
    let now = 1_000;
    const log = rendererErrorLog(logger as never, () => now);
    for (let i = 0; i < 25; i++) log({ kind: 'error', message: `boom ${i}` });
    expect(lines).toHaveLength(10);
    now += 60_000;
    log({ kind: 'unhandledrejection', message: 'later' });
    expect(lines).toHaveLength(11);
    expect(lines[10]?.obj).toMatchObject({ droppedBefore: 15, renderer: { message: 'later' } });
    log({ kind: 'error', message: 'next' });
    expect(lines[11]?.obj.droppedBefore).toBe(0);
  });
});
