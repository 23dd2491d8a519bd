import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Post } from '../../../src/shared/domain.js';
import { ed } from './fixtures.js';
import { openStore, StoreError } from '../../../src/main/store/index.js';
import { openDatabase } from '../../../src/main/store/open.js';
import { MIGRATIONS } from '../../../src/main/store/migrations/index.js';

const tmp = () => join(mkdtempSync(join(tmpdir(), 'mb-store-')), 'cache.db');

function post(id: string, over: Partial<Post> = {}): Post {
  return {
    id,
    culture: 'en-US',
    title: 'Gold rallies',
    summary: 'Summary',
    contentHtml: '<p>Body text</p>',
    publicationDate: '2026-11-20T10:00:00Z',
    updateDate: null,
    url: null,
    imageUrl: null,
    authorName: 'A',
    companyName: null,
    categories: [],
    tags: [],
    ...over,
  };
}

describe('migrations and opening', () => {
  it('creates a fresh database at the latest schema', () => {
    const store = openStore({ path: tmp() });
    expect(store.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)?.version);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    store.close();
  });

  it('upgrades a previous-version database without losing its rows', () => {
    const path = tmp();
    const v1 = openDatabase(path, { migrations: MIGRATIONS.slice(0, 1) });
    v1.prepare("INSERT INTO sync_state (key, value) VALUES ('k', 'v')").run();
    v1.close();
    const store = openStore({ path });
    expect(store.getSyncState('k')).toBe('v');
    expect(store.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)?.version);
    expect(
      store.insertAlert({
        dedupKey: 'x',
        kind: 'released',
        title: 't',
        body: 'b',
        createdAt: 1,
        target: { type: 'alerts' },
      }),
    ).not.toBeNull();
    store.close();
  });

  it('refuses a newer-version database with a clear error naming the file, and leaves it alone', () => {
    const path = tmp();
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    const before = readFileSync(path);
    expect(() => openStore({ path })).toThrow(StoreError);
    const message = (() => {
      try {
        openStore({ path });
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(message).toContain('newer version');
    expect(message).toContain(path);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('reports a damaged file with its path and never deletes it', () => {
    const path = tmp();
    writeFileSync(path, 'this is not a database'.repeat(100));
    expect(() => openStore({ path })).toThrow(/damaged.*cache\.db|cache\.db.*damaged/);
    expect(readFileSync(path, 'utf8')).toContain('this is not a database');
  });

  it('survives a kill in the middle of writes: every committed row is there', async () => {
    const path = tmp();
    const writer = fileURLToPath(new URL('./kill-writer.ts', import.meta.url));
    // The real Store in a child (tsx runs the TypeScript); killed once it has committed a lot.
    const child = spawn(process.execPath, ['--import', 'tsx', writer, path], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let committed = 0;
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`writer committed only ${committed} rows in 60 s: ${stderr}`));
      }, 60_000);
      child.stdout.on('data', (d: Buffer) => {
        committed = Number(d.toString().trim().split('\n').at(-1));
        if (committed >= 2000) {
          child.kill('SIGKILL');
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        if (committed < 2000)
          reject(new Error(`writer exited (${code}) early; is tsx installed (npm ci)? ${stderr}`));
      });
    });
    await exited;
    const store = openStore({ path, quickCheck: true });
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    const { eventDates, posts } = store.counts();
    expect(eventDates).toBeGreaterThanOrEqual(committed);
    expect(eventDates % 20).toBe(0);
    expect(posts).toBe(eventDates);
    for (const i of [0, committed - 1]) {
      expect(store.getEventDate(`k${i}`)?.lastUpdated).toBe(i);
      expect(store.getEventDateRaw(`k${i}`)).toEqual({ n: i });
    }
    expect(store.searchPosts({ query: `Post ${committed - 1}`, limit: 1 })[0]?.id).toBe(
      `p${committed - 1}`,
    );
    store.close();
  });
});

describe('event dates', () => {
  it('never lets an older update overwrite a newer one', () => {
    const s = openStore({ path: tmp() });
    expect(s.upsertEventDate(ed('a', { lastUpdated: 200, actual: 5 }), {}).written).toBe(true);
    expect(s.upsertEventDate(ed('a', { lastUpdated: 150, actual: 1 }), {}).written).toBe(false);
    expect(s.getEventDate('a')?.actual).toBe(5);
    const r = s.upsertEventDate(ed('a', { lastUpdated: 300, actual: 6 }), { extra: 'kept' });
    expect(r).toMatchObject({ written: true, previous: { actual: 5 } });
    expect(s.getEventDateRaw('a')).toEqual({ extra: 'kept' });
    s.close();
  });

  it('keeps a deleted occurrence deleted unless a newer update arrives', () => {
    const s = openStore({ path: tmp() });
    s.upsertEventDate(ed('a', { lastUpdated: 100 }), {});
    expect(s.deleteEventDate('a', 120)?.id).toBe('a');
    expect(s.upsertEventDate(ed('a', { lastUpdated: 110 }), {}).written).toBe(false);
    expect(s.isTombstoned('eventDate', 'a', 110)).toBe(true);
    expect(s.upsertEventDate(ed('a', { lastUpdated: 130 }), {}).written).toBe(true);
    s.close();
  });

  it('filters a window by impact, country or currency, category and text', () => {
    const s = openStore({ path: tmp() });
    s.upsertEvent(
      {
        id: 'ev-b',
        name: 'CPI',
        description: null,
        countryCode: 'UK',
        currencyCode: 'GBP',
        categoryId: 'INFL',
        periodType: null,
        unit: null,
        potency: null,
        volatility: 'MEDIUM',
        isSpeech: false,
        isReport: false,
      },
      {},
    );
    s.upsertEventDate(ed('a'), {});
    s.upsertEventDate(
      ed('b', {
        name: 'Consumer Price Index',
        countryCode: 'UK',
        currencyCode: 'GBP',
        volatility: 'MEDIUM',
        dateUtc: '2026-11-21T07:00:00Z',
      }),
      {},
    );
    s.upsertEventDate(ed('c', { dateUtc: '2026-12-20T13:30:00Z' }), {});
    const win = { from: '2026-11-19T00:00:00Z', to: '2026-11-26T00:00:00Z' };
    expect(s.listEventDates(win).map((x) => x.id)).toEqual(['a', 'b']);
    expect(s.listEventDates({ ...win, volatilities: ['HIGH'] }).map((x) => x.id)).toEqual(['a']);
    expect(s.listEventDates({ ...win, countries: ['GBP'] }).map((x) => x.id)).toEqual(['b']);
    expect(s.listEventDates({ ...win, categories: ['INFL'] }).map((x) => x.id)).toEqual(['b']);
    expect(s.listEventDates({ ...win, text: 'price%' }).map((x) => x.id)).toEqual([]);
    expect(s.listEventDates({ ...win, text: 'price' }).map((x) => x.id)).toEqual(['b']);
    expect(s.nextRelease({ after: '2026-11-20T14:00:00Z' })?.id).toBe('b');
    const plan = JSON.stringify(
      s.db
        .prepare(
          'EXPLAIN QUERY PLAN SELECT id, last_updated FROM event_dates WHERE date_ms >= 1 AND date_ms < 2 ORDER BY date_ms, id',
        )
        .all(),
    );
    expect(plan).toMatch(/COVERING INDEX event_dates_window/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
    // a changed record is never served from the parsed-record cache
    s.upsertEventDate(ed('a', { lastUpdated: 100, consensus: 9 }), {});
    expect(s.listEventDates(win).find((x) => x.id === 'a')?.consensus).toBe(9);
    s.close();
  });
});

describe('posts and search', () => {
  it('pages newest first with read state', () => {
    const s = openStore({ path: tmp() });
    for (let i = 0; i < 5; i++)
      s.upsertPost(post(`p${i}`, { publicationDate: `2026-11-2${i}T10:00:00Z` }), {});
    s.markPostRead('p4', 'en-US');
    const page = s.listPosts({ culture: 'en-US', page: 1, pageSize: 2 });
    expect(page.total).toBe(5);
    expect(page.items.map((p) => [p.id, p.read])).toEqual([
      ['p4', true],
      ['p3', false],
    ]);
    expect(s.listPosts({ culture: 'en-US', page: 3, pageSize: 2 }).items.map((p) => p.id)).toEqual([
      'p0',
    ]);
    s.close();
  });

  it('ranks title matches first and returns safe highlighted snippets', () => {
    const s = openStore({ path: tmp() });
    s.upsertPost(
      post('body', {
        title: 'Markets wrap',
        contentHtml: '<p>Payrolls beat <script>alert(1)</script> forecasts &amp; more</p>',
      }),
      {},
    );
    s.upsertPost(
      post('title', { title: 'Payrolls surge', contentHtml: '<p>Strong jobs data</p>' }),
      {},
    );
    const hits = s.searchPosts({ query: 'payroll' });
    expect(hits.map((h) => h.id)).toEqual(['title', 'body']);
    const snippet = hits[1]?.snippetHtml ?? '';
    expect(snippet).toContain('<mark>Payrolls</mark>');
    expect(snippet).not.toContain('<script');
    expect(snippet).toContain('&amp;');
    s.upsertPost(post('xss', { title: 'Danger <img src=x onerror=alert(1)> payrolls' }), {});
    for (const h of s.searchPosts({ query: 'danger' })) expect(h.snippetHtml).not.toMatch(/<img/);
    s.close();
  });

  it('never throws on odd search input', () => {
    const s = openStore({ path: tmp() });
    s.upsertPost(post('a'), {});
    for (const q of ['"', 'AND(', '*', 'NEAR(a b', '-', '   ', "o'brien", 'gold OR']) {
      expect(() => s.searchPosts({ query: q })).not.toThrow();
    }
    expect(s.searchPosts({ query: 'gold' }).map((h) => h.id)).toEqual(['a']);
    s.close();
  });

  it('removes deleted posts from the list and from search', () => {
    const s = openStore({ path: tmp() });
    s.upsertPost(post('a'), {});
    expect(s.deletePost('a', 'en-US', Date.parse('2026-11-21T00:00:00Z') / 1000)?.id).toBe('a');
    expect(s.searchPosts({ query: 'gold' })).toEqual([]);
    expect(s.upsertPost(post('a'), {}).written).toBe(false);
    s.close();
  });
});

describe('alerts and maintenance', () => {
  it('records an alert once per dedup key, newest first, with read state', () => {
    const s = openStore({ path: tmp() });
    const a = {
      dedupKey: 'released:x',
      kind: 'released' as const,
      title: 'US NFP',
      body: '275K',
      createdAt: 1,
      target: { type: 'alerts' as const },
    };
    expect(s.insertAlert(a)?.id).toBeGreaterThan(0);
    expect(s.insertAlert(a)).toBeNull();
    s.insertAlert({ ...a, dedupKey: 'released:y', createdAt: 2 });
    expect(s.listAlerts().map((x) => x.createdAt)).toEqual([2, 1]);
    expect(s.countUnreadAlerts()).toBe(2);
    s.markAlertsRead();
    expect(s.countUnreadAlerts()).toBe(0);
    s.close();
  });

  it('clears the cache but keeps the alert history; nothing secret has a column', () => {
    const s = openStore({ path: tmp() });
    s.upsertEventDate(ed('a'), {});
    s.upsertPost(post('p'), {});
    s.insertAlert({
      dedupKey: 'k',
      kind: 'news',
      title: 't',
      body: 'b',
      createdAt: 1,
      target: { type: 'alerts' },
    });
    s.clearCache();
    expect(s.counts()).toEqual({ eventDates: 0, posts: 0, events: 0 });
    expect(s.listAlerts()).toHaveLength(1);
    const cols = (
      s.db.prepare("SELECT group_concat(name) AS c FROM pragma_table_info('events')").get() as {
        c: string;
      }
    ).c;
    const all = (
      s.db.prepare('SELECT group_concat(sql) AS s FROM sqlite_master').get() as { s: string }
    ).s;
    expect(cols).toBeTruthy();
    expect(all).not.toMatch(/secret|access_token|private|password|client_id|api_key/i);
    s.close();
  });
});
