// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * Issue #45: a first run's rows within 1.5 s. The page's first requests (status, settings,
 * then the calendar) leave before React's first render, not after it, and each once: the
 * App's mount and the calendar's boot share them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, type E2E } from './harness.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

describe('the first view', () => {
  it('asks for the status and settings before the first render, and each request once', async () => {
    const context = await e.browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await context.newPage();
      // when React first puts something in #root (its first commit)
      await page.addInitScript(() => {
        new MutationObserver((_m, obs) => {
          if (document.getElementById('root')?.firstChild) {
            (window as unknown as { __firstCommit: number }).__firstCommit = performance.now();
            obs.disconnect();
          }
        }).observe(document, { childList: true, subtree: true });
      });
      const asked: string[] = [];
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname;
        if (path.startsWith('/api/') && path !== '/api/events') asked.push(path);
      });
      // the filter menu's categories are asked after the first rows: the first view is done
      const categories = page.waitForResponse((r) => r.url().endsWith('/api/listCategories'));
      await page.goto(e.host.newLoginUrl());
      await page.locator('[data-testid=event-row]').first().waitFor({ timeout: 20_000 });
      await categories;
      const firstView = asked.slice(0, asked.indexOf('/api/listCategories'));
      expect(firstView.sort()).toEqual([
        '/api/getSettings',
        '/api/getStatus',
        '/api/listEventDates',
      ]);
      const t = await page.evaluate(() => ({
        commit: (window as unknown as { __firstCommit: number }).__firstCommit,
        started: Object.fromEntries(
          performance
            .getEntriesByType('resource')
            .filter((r) => r.name.includes('/api/'))
            .map((r) => [new URL(r.name).pathname, r.startTime]),
        ),
      }));
      expect(t.started['/api/getStatus']).toBeLessThan(t.commit);
      expect(t.started['/api/getSettings']).toBeLessThan(t.commit);
    } finally {
      await context.close();
    }
  }, 60_000);
});
