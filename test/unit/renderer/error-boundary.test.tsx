// @vitest-environment jsdom
/**
 * A failing part of the window is contained and reported (components/ErrorBoundary.tsx,
 * lib/error-reports.ts): the screen that threw says so and reloads, its sibling keeps
 * running, and the core hears of it — with React's component stack — through the bridge.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../../src/renderer/src/components/ErrorBoundary.js';
import {
  reportRendererError,
  startErrorReports,
} from '../../../src/renderer/src/lib/error-reports.js';
import type { RendererErrorReport } from '../../../src/shared/ipc.js';

afterEach(cleanup);

const reports: RendererErrorReport[] = [];
startErrorReports({
  api: {
    reportRendererError: async (r: RendererErrorReport) => {
      reports.push(r);
      return null;
    },
  } as never,
});

let failing = true;
function NewsScreen() {
  if (failing) throw new Error('the news screen broke');
  return <p>News</p>;
}
function Ticker() {
  const [n, setN] = useState(0);
  return (
    <button type="button" onClick={() => setN(n + 1)}>
      ticks {n}
    </button>
  );
}

describe('error boundaries', () => {
  it('a screen that throws says so and offers a reload; its sibling runs; the core hears the component stack', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // React logs what it caught
    reports.length = 0;
    render(
      <>
        <ErrorBoundary name="news" variant="screen">
          <NewsScreen />
        </ErrorBoundary>
        <Ticker />
      </>,
    );
    expect(screen.getByTestId('screen-failed').textContent).toContain('the news screen broke');
    fireEvent.click(screen.getByRole('button', { name: 'ticks 0' }));
    expect(screen.getByRole('button', { name: 'ticks 1' })).toBeTruthy();
    expect(reports).toEqual([
      expect.objectContaining({
        kind: 'boundary',
        message: 'the news screen broke',
        screen: 'news',
        componentStack: expect.stringContaining('NewsScreen'),
      }),
    ]);

    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reload this screen' }));
    expect(screen.getByText('News')).toBeTruthy();
    expect(screen.queryByTestId('screen-failed')).toBeNull();
    vi.restoreAllMocks();
  });

  it('a layer that throws shows nothing and starts again when its key changes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    failing = true;
    const { rerender } = render(
      <ErrorBoundary name="toasts" variant="layer" resetKey={1}>
        <NewsScreen />
      </ErrorBoundary>,
    );
    expect(screen.queryByTestId('screen-failed')).toBeNull();
    expect(screen.queryByText('News')).toBeNull();
    failing = false;
    rerender(
      <ErrorBoundary name="toasts" variant="layer" resetKey={2}>
        <NewsScreen />
      </ErrorBoundary>,
    );
    expect(screen.getByText('News')).toBeTruthy();
    vi.restoreAllMocks();
  });

  it("the window's uncaught errors and rejections are reported, a few a minute at most", () => {
    reports.length = 0;
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('uncaught'), message: 'x' }));
    const rejection = new Event('unhandledrejection') as Event & { reason?: unknown };
    rejection.reason = new Error('rejected');
    window.dispatchEvent(rejection);
    expect(reports.map((r) => [r.kind, r.message])).toEqual([
      ['error', 'uncaught'],
      ['unhandledrejection', 'rejected'],
    ]);
    for (let i = 0; i < 20; i++) reportRendererError({ kind: 'error', message: `loop ${i}` });
    // five a minute in all (this file's earlier reports count too): the loop is cut short
    const loops = reports.filter((r) => r.message.startsWith('loop'));
    expect(loops.length).toBeLessThan(5);
    expect(loops.map((r) => r.message)).not.toContain('loop 19');
  });
});
