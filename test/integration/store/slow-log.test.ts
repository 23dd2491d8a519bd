import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/store/index.js';
import { logSlowReads } from '../../../src/main/store/slow-log.js';
import { ed } from './fixtures.js';

describe('slow store reads', () => {
  it('are logged with their name, duration and size, never their arguments', () => {
    const store = openStore({ path: join(mkdtempSync(join(tmpdir(), 'mb-slow-')), 'c.db') });
    store.transaction(() => {
      for (let i = 0; i < 50; i++) store.upsertEventDate(ed(`s${i}`), {});
    });
    const warnings: [Record<string, unknown>, string][] = [];
    const logger = { warn: (o: Record<string, unknown>, msg: string) => warnings.push([o, msg]) };
    const window = { from: '2026-11-19T00:00:00Z', to: '2026-11-21T00:00:00Z' };

    // Threshold 0: every timed read counts as slow.
    const timed = logSlowReads(store, logger as never, 0);
    expect(timed).toBe(store);
    expect(timed.listEventDates(window)).toHaveLength(50);
    timed.searchPosts({ query: 'secret-words-of-the-user' });
    timed.counts(); // not a timed read
    expect(warnings.map(([o]) => [o.query, o.rows])).toEqual([
      ['listEventDates', 50],
      ['searchPosts', 0],
    ]);
    expect(
      warnings.every(([o, msg]) => typeof o.ms === 'number' && msg === 'slow store read'),
    ).toBe(true);
    expect(JSON.stringify(warnings)).not.toContain('secret-words');

    // The real threshold: a small query is not worth a line.
    const quiet: unknown[] = [];
    logSlowReads(store, { warn: (o: unknown) => quiet.push(o) } as never);
    store.listEventDates(window);
    expect(quiet).toEqual([]);
    store.close();
  });
});
