/** Every query with its filters, the v1 → latest upgrade with data, and the open errors' wording. */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CalendarEvent, EventDate, Post } from '../../../src/shared/domain.js';
import { htmlToText, openStore, type Store } from '../../../src/main/store/index.js';
import { openDatabase } from '../../../src/main/store/open.js';
import { MIGRATIONS } from '../../../src/main/store/migrations/index.js';
import { ed } from './fixtures.js';
import { postFixture } from '../../fixtures/domain.js';

const tmp = () => join(mkdtempSync(join(tmpdir(), 'mb-store-q-')), 'cache.db');
const open: Store[] = [];
const store = (path = tmp()) => {
  const s = openStore({ path });
  open.push(s);
  return s;
};
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

const post = (id: string, over: Partial<Post> = {}): Post => postFixture({ id, ...over });

const event = (id: string, over: Partial<CalendarEvent> = {}): CalendarEvent => ({
  id,
  name: 'Nonfarm Payrolls',
  description: null,
  countryCode: 'US',
  currencyCode: 'USD',
  categoryId: 'EMPL',
  periodType: null,
  unit: null,
  potency: null,
  volatility: 'HIGH',
  isSpeech: false,
  isReport: false,
  ...over,
});

const plan = (s: Store, sql: string, ...args: unknown[]) =>
  (s.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[])
    .map((r) => r.detail)
    .join(' | ');

describe('upgrading and refusing', () => {
  it('upgrades a v1 database with cached rows: new columns filled, old posts searchable', () => {
    const path = tmp();
    const v1 = openDatabase(path, { migrations: MIGRATIONS.slice(0, 1) });
    const record = ed('old', { volatility: 'MEDIUM', consensus: 2.5 });
    v1.prepare(
      `INSERT INTO event_dates (id, event_id, date_ms, country_code, currency_code, volatility_rank, name, actual, last_updated, record, raw)
       VALUES ('old', 'ev-old', ?, 'US', 'USD', 2, 'Nonfarm Payrolls', NULL, 100, ?, '{}')`,
    ).run(Date.parse(record.dateUtc), JSON.stringify(record));
    const p = post('p1', { title: 'Payrolls surprise', contentHtml: '<p>Jobs &amp; wages</p>' });
    v1.prepare(
      `INSERT INTO posts (id, culture, published_ms, updated_ms, title, summary, author_name, record, raw)
       VALUES ('p1', 'en-US', 1, 1, ?, NULL, NULL, ?, '{}')`,
    ).run(p.title, JSON.stringify(p));
    v1.close();

    const s = store(path);
    expect(s.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)?.version);
    expect(
      s.db.prepare("SELECT volatility, consensus FROM event_dates WHERE id = 'old'").get(),
    ).toEqual({ volatility: 'MEDIUM', consensus: 2.5 });
    expect(
      s
        .listEventDates({
          from: '2026-11-01T00:00:00Z',
          to: '2026-12-01T00:00:00Z',
          volatilities: ['MEDIUM'],
        })
        .map((x) => x.id),
    ).toEqual(['old']);
    expect(s.searchPosts({ query: 'wages' }).map((h) => h.id)).toEqual(['p1']);
  });

  it('names the schema versions and the file when the database is newer', () => {
    const path = tmp();
    const db = new Database(path);
    db.pragma('user_version = 42');
    db.close();
    const known = MIGRATIONS.at(-1)?.version;
    expect(() => openStore({ path })).toThrow(
      `(schema 42, this version understands ${known}): ${path}. Update Macrobell or choose another data folder.`,
    );
  });

  it('tells the user to move a damaged file aside, leaving every byte as it was', () => {
    const path = tmp();
    // A real SQLite header followed by garbage: the header reads, the schema does not.
    const good = new Database(path);
    good.exec('CREATE TABLE t (x)');
    good.close();
    const bytes = readFileSync(path);
    bytes.fill(0x5a, 100);
    writeFileSync(path, bytes);
    let message = '';
    try {
      openStore({ path, quickCheck: true });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain(`The cache database at ${path} is damaged:`);
    expect(message).toContain('Move it aside (Macrobell will rebuild the cache from the service)');
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });
});

describe('calendar queries', () => {
  const seed = (s: Store) => {
    s.upsertEvent(event('ev-nfp'), { Id: 'ev-nfp', Extra: 1 });
    s.upsertEvent(
      event('ev-cpi', {
        name: 'CPI',
        countryCode: 'UK',
        currencyCode: 'GBP',
        categoryId: 'INFL',
        volatility: 'MEDIUM',
      }),
      {},
    );
    const rows: EventDate[] = [
      ed('nfp-sep', { eventId: 'ev-nfp', dateUtc: '2026-09-04T12:30:00Z', actual: 150 }),
      ed('nfp-oct', { eventId: 'ev-nfp', dateUtc: '2026-10-02T12:30:00Z', actual: 180 }),
      ed('nfp-nov', { eventId: 'ev-nfp', dateUtc: '2026-11-06T13:30:00Z', actual: null }),
      ed('cpi-nov', {
        eventId: 'ev-cpi',
        name: 'CPI',
        countryCode: 'UK',
        currencyCode: 'GBP',
        volatility: 'MEDIUM',
        dateUtc: '2026-11-05T07:00:00Z',
      }),
      ed('low-nov', {
        eventId: 'ev-low',
        name: 'Redbook',
        volatility: 'LOW',
        dateUtc: '2026-11-05T13:55:00Z',
      }),
    ];
    for (const r of rows) s.upsertEventDate(r, {});
  };

  it('answers windows, next release, upcoming, history and occurrences', () => {
    const s = store();
    seed(s);
    const nov = { from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' };
    expect(s.listEventDates(nov).map((x) => x.id)).toEqual(['cpi-nov', 'low-nov', 'nfp-nov']);
    expect(s.listEventDates({ ...nov, volatilities: ['HIGH', 'MEDIUM'] }).map((x) => x.id)).toEqual(
      ['cpi-nov', 'nfp-nov'],
    );
    expect(s.listEventDates({ ...nov, countries: ['UK'] }).map((x) => x.id)).toEqual(['cpi-nov']);
    expect(s.listEventDates({ ...nov, countries: ['USD'] }).map((x) => x.id)).toEqual([
      'low-nov',
      'nfp-nov',
    ]);
    expect(s.listEventDates({ ...nov, categories: ['EMPL'] }).map((x) => x.id)).toEqual([
      'nfp-nov',
    ]);
    expect(s.listEventDates({ ...nov, text: 'REDBOOK' }).map((x) => x.id)).toEqual(['low-nov']);
    expect(s.listEventDates({ ...nov, limit: 1 }).map((x) => x.id)).toEqual(['cpi-nov']);

    expect(s.nextRelease({ after: '2026-11-05T08:00:00Z' })?.id).toBe('low-nov');
    expect(s.nextRelease({ after: '2026-11-05T08:00:00Z', volatilities: ['HIGH'] })?.id).toBe(
      'nfp-nov',
    );
    expect(s.nextRelease({ after: '2026-11-07T00:00:00Z' })).toBeNull();

    expect(s.upcoming({ ...nov, minVolatility: 'MEDIUM' }).map((x) => x.id)).toEqual([
      'cpi-nov',
      'nfp-nov',
    ]);
    expect(s.upcoming({ ...nov, eventIds: ['ev-cpi'] }).map((x) => x.id)).toEqual(['cpi-nov']);
    expect(s.upcoming({ ...nov, eventIds: [] })).toEqual([]);

    expect(s.eventHistory('ev-nfp').map((x) => x.id)).toEqual(['nfp-oct', 'nfp-sep']);
    expect(s.eventHistory('ev-nfp', { limit: 1 }).map((x) => x.id)).toEqual(['nfp-oct']);
    expect(
      s
        .eventOccurrences('ev-nfp', { from: '2026-10-01T00:00:00Z', to: '2026-12-01T00:00:00Z' })
        .map((x) => x.id),
    ).toEqual(['nfp-oct', 'nfp-nov']);

    expect(s.getEvent('ev-nfp')?.name).toBe('Nonfarm Payrolls');
    expect(s.getEvent('nope')).toBeNull();
    s.upsertCategories([
      { id: 'INFL', name: 'Inflation' },
      { id: 'EMPL', name: 'Employment' },
    ]);
    s.upsertCategories([{ id: 'INFL', name: 'Prices' }]);
    expect(s.listCategories()).toEqual([
      { id: 'EMPL', name: 'Employment' },
      { id: 'INFL', name: 'Prices' },
    ]);
    expect(s.counts()).toEqual({ eventDates: 5, posts: 0, events: 2 });
  });

  it('serves an updated record after a write and after a rolled-back transaction', () => {
    const s = store();
    seed(s);
    const nov = { from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' };
    s.listEventDates(nov);
    s.upsertEventDate(
      ed('nfp-nov', {
        eventId: 'ev-nfp',
        dateUtc: '2026-11-06T13:30:00Z',
        actual: 210,
        lastUpdated: 200,
      }),
      {},
    );
    expect(s.listEventDates(nov).find((x) => x.id === 'nfp-nov')?.actual).toBe(210);
    expect(() =>
      s.transaction(() => {
        s.upsertEventDate(
          ed('nfp-nov', {
            eventId: 'ev-nfp',
            dateUtc: '2026-11-06T13:30:00Z',
            actual: 999,
            lastUpdated: 300,
          }),
          {},
        );
        s.listEventDates(nov);
        throw new Error('rollback');
      }),
    ).toThrow('rollback');
    expect(s.listEventDates(nov).find((x) => x.id === 'nfp-nov')?.actual).toBe(210);
    // a caller changing a returned record does not change what the next caller gets
    const first = s.listEventDates(nov)[0] as EventDate;
    first.name = 'changed';
    expect(s.listEventDates(nov)[0]?.name).not.toBe('changed');
  });

  it('answers the hot queries from indexes', () => {
    const s = store();
    const window = plan(
      s,
      'SELECT id, last_updated FROM event_dates WHERE date_ms >= 1 AND date_ms < 2 AND volatility_rank IN (SELECT value FROM json_each(?)) ORDER BY date_ms, id',
      '[3]',
    );
    expect(window).toMatch(/COVERING INDEX event_dates_window/);
    expect(window).not.toMatch(/SCAN event_dates/);
    expect(
      plan(
        s,
        'SELECT raw FROM event_dates WHERE date_ms >= 1 AND actual IS NULL ORDER BY date_ms, id LIMIT 1',
      ),
    ).toMatch(/event_dates_pending/);
    expect(
      plan(
        s,
        'SELECT raw FROM event_dates WHERE event_id = ? AND date_ms <= ? AND actual IS NOT NULL ORDER BY date_ms DESC LIMIT 3',
        'x',
        1,
      ),
    ).toMatch(/INDEX event_dates_event/);
    expect(
      plan(s, "SELECT id FROM posts WHERE culture = 'en-US' ORDER BY published_ms DESC LIMIT 20"),
    ).toMatch(/INDEX posts_culture_published/);
    expect(plan(s, 'SELECT id FROM posts ORDER BY published_ms DESC LIMIT 20')).toMatch(
      /INDEX posts_published/,
    );
    expect(plan(s, "SELECT id FROM events WHERE category_id = 'x'")).toMatch(
      /INDEX events_category/,
    );
  });
});

describe('news', () => {
  it('pages all cultures or one, and searches within a culture', () => {
    const s = store();
    s.upsertPost(post('a', { title: 'Gold rallies', publicationDate: '2026-11-20T10:00:00Z' }), {});
    s.upsertPost(
      post('a', {
        culture: 'es-ES',
        title: 'El oro sube, gold',
        publicationDate: '2026-11-21T10:00:00Z',
      }),
      {},
    );
    expect(s.listPosts({ page: 1, pageSize: 10 }).items.map((p) => p.culture)).toEqual([
      'es-ES',
      'en-US',
    ]);
    expect(s.listPosts({ culture: 'es-ES', page: 1, pageSize: 10 }).total).toBe(1);
    expect(s.searchPosts({ query: 'gold', culture: 'es-ES' }).map((h) => h.culture)).toEqual([
      'es-ES',
    ]);
    expect(s.searchPosts({ query: 'gol' }).length).toBe(2);
    // a long last word is matched as a prefix too, across accents and case
    s.upsertPost(post('b', { title: 'Banco Central sube tipos', culture: 'es-ES' }), {});
    expect(s.searchPosts({ query: 'oro gold' }).map((h) => h.id)).toEqual(['a']);
    expect(s.searchPosts({ query: 'banco CÉNTR' }).map((h) => h.id)).toEqual(['b']);
    expect(s.searchPosts({ query: 'centrales' })).toEqual([]);
    for (const q of ['gold (rallies', 'a "b" OR c* NEAR', 'zzzzzzzz', 'é'.repeat(40), '🙂 gold'])
      expect(() => s.searchPosts({ query: q })).not.toThrow();
  });

  it('keeps the newer version of a post and never lets an older one back', () => {
    const s = store();
    expect(
      s.upsertPost(post('a', { title: 'v2', updateDate: '2026-11-20T12:00:00Z' }), {}).written,
    ).toBe(true);
    const older = s.upsertPost(post('a', { title: 'v1', updateDate: '2026-11-20T11:00:00Z' }), {});
    expect(older).toMatchObject({ written: false, previous: { title: 'v2' } });
    expect(s.getPost('a', 'en-US')?.title).toBe('v2');
    expect(s.searchPosts({ query: 'v1' })).toEqual([]);
    // a deletion older than the stored version is ignored
    expect(s.deletePost('a', 'en-US', Date.parse('2026-11-20T11:30:00Z') / 1000)).toBeNull();
    expect(s.getPost('a', 'en-US')).not.toBeNull();
  });

  it('escapes HTML from summaries and titles in snippets, and strips script text from the index', () => {
    const s = store();
    s.upsertPost(
      post('x', {
        title: 'Rates & <b>bonds</b>',
        summary: '<p>Yields &lt;rise&gt; on <script>steal()</script> data</p>',
      }),
      {},
    );
    const [hit] = s.searchPosts({ query: 'yields' });
    expect(hit?.snippetHtml).toContain('<mark>Yields</mark>');
    expect(hit?.snippetHtml).toContain('&lt;rise&gt;');
    expect(hit?.snippetHtml).not.toMatch(/<(?!\/?mark>)/);
    expect(s.searchPosts({ query: 'steal' })).toEqual([]);
    expect(htmlToText('<style>p{}</style><p>a&nbsp;b &#x41;&#66; &bogus;</p>')).toBe(
      'a b AB &bogus;',
    );
  });
});

describe('idempotency, sync state and pruning', () => {
  it('applies a notification key once, survives reopening, and prunes old keys and tombstones', () => {
    const path = tmp();
    const s = store(path);
    expect(s.markNotificationApplied('eventDate_updated:x:100:abc')).toBe(true);
    expect(s.markNotificationApplied('eventDate_updated:x:100:abc')).toBe(false);
    s.setSyncState('relay.lastEventId', '41');
    s.setSyncState('relay.lastEventId', '42');
    s.upsertEventDate(ed('gone'), {});
    s.deleteEventDate('gone', 200);
    s.close();
    const again = store(path);
    expect(again.markNotificationApplied('eventDate_updated:x:100:abc')).toBe(false);
    expect(again.getSyncState('relay.lastEventId')).toBe('42');
    expect(again.getSyncState('nope')).toBeNull();
    again.prune({ olderThanMs: 7 * 86_400_000 });
    expect(again.isTombstoned('eventDate', 'gone', 150)).toBe(true);
    again.prune({ olderThanMs: -60_000 });
    expect(again.isTombstoned('eventDate', 'gone', 150)).toBe(false);
    expect(again.markNotificationApplied('eventDate_updated:x:100:abc')).toBe(true);
    expect(again.sizeBytes()).toBeGreaterThan(0);
  });

  it('marks chosen alerts read and lists unread only', () => {
    const s = store();
    const ids = [1, 2, 3].map(
      (n) =>
        s.insertAlert({
          dedupKey: `k${n}`,
          kind: 'released',
          title: `t${n}`,
          body: 'b',
          createdAt: n,
          target: { type: 'eventDate', eventDateId: `e${n}`, eventId: 'ev' },
        })?.id as number,
    );
    s.markAlertsRead([ids[0] as number]);
    expect(s.listAlerts({ unreadOnly: true }).map((a) => a.title)).toEqual(['t3', 't2']);
    expect(s.listAlerts({ limit: 1 })[0]?.target).toEqual({
      type: 'eventDate',
      eventDateId: 'e3',
      eventId: 'ev',
    });
    expect(s.countUnreadAlerts()).toBe(2);
  });

  it('has no column that could hold a secret in any table', () => {
    const s = store();
    const columns = s.db
      .prepare(
        "SELECT m.name AS t, c.name AS c FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table'",
      )
      .all() as { t: string; c: string }[];
    expect(columns.length).toBeGreaterThan(30);
    for (const { t, c } of columns)
      expect(`${t}.${c}`).not.toMatch(
        /key_?id|secret|token|password|private|credential|bearer|api_?key/i,
      );
  });
});
