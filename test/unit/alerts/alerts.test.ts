import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ALERT_RULES,
  type AlertRecord,
  type AlertRules,
  type EventDate,
  type NativeNotification,
  type Post,
} from '../../../src/shared/domain.js';
import { AlertsEngine, type AlertStore, type Timers } from '../../../src/main/alerts/engine.js';
import { inQuietHours, matchesEventDate, matchesPost } from '../../../src/main/alerts/rules.js';
import { releaseBody, reminderText, rescheduledText } from '../../../src/main/alerts/message.js';
import type { NewAlert } from '../../../src/main/store/store.js';

const ed = (over: Partial<EventDate> = {}): EventDate => ({
  id: 'ed1',
  eventId: 'e1',
  dateUtc: '2026-11-06T13:30:00Z',
  periodDateUtc: null,
  periodType: 'MONTH',
  actual: 275,
  revised: null,
  consensus: 200,
  ratioDeviation: 1.5,
  previous: 229,
  isBetterThanExpected: true,
  name: 'Nonfarm Payrolls',
  countryCode: 'US',
  currencyCode: 'USD',
  unit: null,
  potency: 'K',
  volatility: 'HIGH',
  isAllDay: false,
  isTentative: false,
  isPreliminary: false,
  isReport: false,
  isSpeech: false,
  lastUpdated: 1,
  ...over,
});

/** A second implementation of the engine's store port (the SQLite one is tested elsewhere). */
class MemoryAlertStore implements AlertStore {
  alerts: AlertRecord[] = [];
  keys = new Set<string>();
  dates: EventDate[] = [];
  insertAlert(a: NewAlert): AlertRecord | null {
    if (this.keys.has(a.dedupKey)) return null;
    this.keys.add(a.dedupKey);
    const r = {
      id: this.alerts.length + 1,
      kind: a.kind,
      title: a.title,
      body: a.body,
      createdAt: a.createdAt,
      read: false,
      target: a.target,
    };
    this.alerts.push(r);
    return r;
  }
  upcoming(q: { from: string; to: string; eventIds?: string[] }): EventDate[] {
    return this.dates.filter(
      (d) =>
        d.dateUtc >= q.from && d.dateUtc < q.to && (!q.eventIds || q.eventIds.includes(d.eventId)),
    );
  }
}

/** A controllable clock and timers. */
class Clock implements Timers {
  now = Date.parse('2026-11-06T13:30:00Z');
  private queue: { at: number; fn: () => void; id: number }[] = [];
  private n = 0;
  setTimeout(fn: () => void, ms: number) {
    const id = ++this.n;
    this.queue.push({ at: this.now + ms, fn, id });
    return id;
  }
  clearTimeout(h: unknown) {
    this.queue = this.queue.filter((t) => t.id !== h);
  }
  advance(ms: number) {
    const end = this.now + ms;
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at);
      const next = this.queue[0];
      if (!next || next.at > end) break;
      this.queue.shift();
      this.now = next.at;
      next.fn();
    }
    this.now = end;
  }
}

function engine(
  rules: Partial<AlertRules> = {},
  store = new MemoryAlertStore(),
  clock = new Clock(),
) {
  const sent: NativeNotification[] = [];
  const r: AlertRules = { ...DEFAULT_ALERT_RULES, ...rules };
  const e = new AlertsEngine({
    store,
    rules: () => r,
    timeZone: () => 'UTC',
    sink: (n) => sent.push(n),
    now: () => clock.now,
    timers: clock,
    coalesceMs: 1500,
    maxPerMinute: 4,
  });
  const apply = (change: Parameters<AlertsEngine['recordForChange']>[0]) =>
    e.dispatch(e.recordForChange(change));
  return { e, store, clock, sent, apply, rules: r };
}

describe('messages', () => {
  it('formats a release the way a trader reads it', () => {
    expect(releaseBody(ed())).toBe('275K vs 200K consensus (prev 229K) — beat');
    expect(
      releaseBody(
        ed({
          unit: '%',
          potency: 'ZERO',
          actual: -0.3,
          consensus: 0.1,
          previous: 0.2,
          isBetterThanExpected: false,
        }),
      ),
    ).toBe('-0.3% vs 0.1% consensus (prev 0.2%) — miss');
    expect(releaseBody(ed({ consensus: null, isBetterThanExpected: null }))).toBe(
      '275K (prev 229K)',
    );
    expect(releaseBody(ed({ previous: null }))).toBe('275K vs 200K consensus — beat');
    expect(releaseBody(ed({ revised: 210 }))).toBe(
      '275K vs 200K consensus (prev 210K, revised from 229K) — beat',
    );
    expect(
      releaseBody(
        ed({
          unit: '$',
          potency: 'B',
          actual: -70.2,
          consensus: -68,
          previous: -71.5,
          isBetterThanExpected: null,
        }),
      ),
    ).toBe('-$70.2B vs -$68B consensus (prev -$71.5B) — miss');
  });

  it('says when a release moved, in the user’s zone, and reminds with the numbers', () => {
    const moved = rescheduledText(
      ed({ dateUtc: '2026-11-06T14:00:00Z' }),
      '2026-11-06T13:30:00Z',
      'Europe/London',
      'h23',
    );
    expect(moved.body).toBe('Moved to Fri 6 Nov 14:00 (was Fri 6 Nov 13:30)');
    expect(reminderText(ed({ actual: null }), 5)).toEqual({
      title: 'US Nonfarm Payrolls in 5 min',
      body: 'consensus 200K, prev 229K',
    });
  });
});

describe('rules', () => {
  it('matches by impact, country, currency and change kind; watched events always', () => {
    const r = DEFAULT_ALERT_RULES;
    expect(matchesEventDate(ed(), r, 'released')).toBe(true);
    expect(matchesEventDate(ed({ volatility: 'MEDIUM' }), r, 'released')).toBe(false);
    expect(
      matchesEventDate(ed({ volatility: 'MEDIUM' }), { ...r, watchedEventIds: ['e1'] }, 'released'),
    ).toBe(true);
    expect(matchesEventDate(ed(), { ...r, countries: ['UK'] }, 'released')).toBe(false);
    expect(matchesEventDate(ed(), { ...r, currencies: ['USD'] }, 'released')).toBe(true);
    expect(matchesEventDate(ed(), r, 'added')).toBe(false);
    expect(
      matchesEventDate(
        ed(),
        { ...r, changes: { ...r.changes, released: false }, watchedEventIds: ['e1'] },
        'released',
      ),
    ).toBe(false);
  });

  it('matches news by keyword (whole words) or category, only when news alerts are on', () => {
    const post = {
      title: 'Fed hikes rates',
      summary: 'Powell signals more',
      categories: ['Central Banks'],
      tags: ['USD'],
    } as Post;
    expect(matchesPost(post, { ...DEFAULT_ALERT_RULES, newsKeywords: ['powell'] })).toBe(false);
    expect(
      matchesPost(post, { ...DEFAULT_ALERT_RULES, newsEnabled: true, newsKeywords: ['powell'] }),
    ).toBe(true);
    expect(
      matchesPost(post, { ...DEFAULT_ALERT_RULES, newsEnabled: true, newsKeywords: ['fe'] }),
    ).toBe(false);
    expect(
      matchesPost(post, {
        ...DEFAULT_ALERT_RULES,
        newsEnabled: true,
        newsCategories: ['central banks'],
      }),
    ).toBe(true);
  });

  it('knows quiet hours across midnight, in their time zone, on a DST day', () => {
    const q = {
      ...DEFAULT_ALERT_RULES,
      quietHours: { enabled: true, start: '22:00', end: '07:00', timeZone: 'America/New_York' },
    };
    expect(inQuietHours(Date.parse('2026-03-08T04:00:00Z'), q, 'UTC')).toBe(true); // 23:00 EST
    expect(inQuietHours(Date.parse('2026-03-08T10:30:00Z'), q, 'UTC')).toBe(true); // 06:30 EDT, after the switch
    expect(inQuietHours(Date.parse('2026-03-08T11:30:00Z'), q, 'UTC')).toBe(false); // 07:30 EDT
    expect(
      inQuietHours(
        Date.parse('2026-03-08T04:00:00Z'),
        { ...q, quietHours: { ...q.quietHours, enabled: false } },
        'UTC',
      ),
    ).toBe(false);
  });
});

describe('engine', () => {
  it('alerts once per release whatever the source, and not again after a restart', () => {
    const t = engine();
    t.apply({ kind: 'released', eventDate: ed(), source: 'relay' });
    t.apply({ kind: 'released', eventDate: ed(), source: 'relay' });
    t.apply({ kind: 'released', eventDate: ed(), source: 'poll' });
    expect(t.store.alerts).toHaveLength(1);
    expect(t.sent).toEqual([
      {
        title: 'US Nonfarm Payrolls',
        body: '275K vs 200K consensus (prev 229K) — beat',
        target: { type: 'eventDate', eventDateId: 'ed1', eventId: 'e1' },
        alertIds: [1],
        silent: false,
      },
    ]);
    const restarted = engine({}, t.store, t.clock);
    restarted.apply({ kind: 'released', eventDate: ed(), source: 'backfill' });
    expect(t.store.alerts).toHaveLength(1);
    expect(restarted.sent).toHaveLength(0);
  });

  it('does not spray old prints after a night offline, but alerts one from a short gap', () => {
    const t = engine();
    t.apply({
      kind: 'released',
      eventDate: ed({ id: 'old', dateUtc: '2026-11-06T01:00:00Z' }),
      source: 'backfill',
    });
    t.apply({
      kind: 'released',
      eventDate: ed({ id: 'recent', dateUtc: '2026-11-06T13:25:00Z' }),
      source: 'backfill',
    });
    expect(t.store.alerts.map((a) => (a.target as { eventDateId: string }).eventDateId)).toEqual([
      'recent',
    ]);
  });

  it('groups a burst into one notification with a line per release, and rate-limits', () => {
    const t = engine();
    t.apply({
      kind: 'released',
      eventDate: ed({ id: 'a', name: 'Nonfarm Payrolls' }),
      source: 'relay',
    });
    t.apply({
      kind: 'released',
      eventDate: ed({
        id: 'b',
        name: 'Unemployment Rate',
        unit: '%',
        potency: 'ZERO',
        actual: 4.1,
        consensus: 4.2,
        previous: 4.2,
        isBetterThanExpected: true,
      }),
      source: 'relay',
    });
    t.apply({
      kind: 'released',
      eventDate: ed({ id: 'c', name: 'Average Hourly Earnings' }),
      source: 'relay',
    });
    expect(t.sent).toHaveLength(1); // the first at once
    t.clock.advance(1500);
    expect(t.sent).toHaveLength(2);
    expect(t.sent[1]?.title).toBe('2 releases');
    expect(t.sent[1]?.body.split('\n')).toEqual([
      'US Unemployment Rate: 4.1% vs 4.2% consensus (prev 4.2%) — beat',
      'US Average Hourly Earnings: 275K vs 200K consensus (prev 229K) — beat',
    ]);
    expect(t.sent[1]?.target).toEqual({ type: 'alerts' });
    // more than four a minute: the rest wait and merge, nothing is dropped from history
    for (let i = 0; i < 6; i++) {
      t.clock.advance(2000);
      t.apply({ kind: 'released', eventDate: ed({ id: `x${i}` }), source: 'relay' });
    }
    t.clock.advance(1500);
    const inFirstMinute = t.sent.length;
    expect(inFirstMinute).toBeLessThanOrEqual(4);
    t.clock.advance(61_000);
    expect(t.sent.flatMap((n) => n.alertIds)).toHaveLength(9);
    expect(t.store.alerts).toHaveLength(9);
  });

  it('is silent in quiet hours and quiet while paused, keeping the history', () => {
    const quiet = engine({
      quietHours: { enabled: true, start: '13:00', end: '14:00', timeZone: 'UTC' },
    });
    quiet.apply({ kind: 'released', eventDate: ed(), source: 'relay' });
    expect(quiet.sent[0]?.silent).toBe(true);
    const paused = engine({ pausedUntil: Date.parse('2026-11-06T15:00:00Z') });
    paused.apply({ kind: 'released', eventDate: ed(), source: 'relay' });
    expect(paused.sent).toHaveLength(0);
    expect(paused.store.alerts).toHaveLength(1);
  });

  it('reminds before watched releases, follows reschedules and drops removed ones', async () => {
    const t = engine({ watchedEventIds: ['e1'], reminderMinutes: 5 });
    t.clock.now = Date.parse('2026-11-06T12:00:00Z');
    t.store.dates = [ed({ actual: null, dateUtc: '2026-11-06T13:30:00Z' })];
    t.e.rescheduleReminders();
    t.clock.advance(60 * 60_000); // 13:00: nothing yet
    expect(t.sent).toHaveLength(0);
    // moved to 14:00 → the reminder moves to 13:55
    t.store.dates = [ed({ actual: null, dateUtc: '2026-11-06T14:00:00Z' })];
    t.e.recordForChange({
      kind: 'rescheduled',
      eventDate: t.store.dates[0] as EventDate,
      fromDateUtc: '2026-11-06T13:30:00Z',
      source: 'relay',
    });
    await Promise.resolve();
    t.clock.advance(30 * 60_000); // 13:30
    expect(t.sent.filter((n) => n.title.includes('in 5 min'))).toHaveLength(0);
    t.clock.advance(25 * 60_000); // 13:55
    expect(t.sent.filter((n) => n.title === 'US Nonfarm Payrolls in 5 min')).toHaveLength(1);
    // a removed release gets no reminder
    const u = engine({ watchedEventIds: ['e1'], reminderMinutes: 5 });
    u.clock.now = Date.parse('2026-11-06T12:00:00Z');
    u.store.dates = [ed({ actual: null })];
    u.e.rescheduleReminders();
    u.store.dates = [];
    u.e.recordForChange({
      kind: 'eventDateRemoved',
      eventDateId: 'ed1',
      eventId: 'e1',
      eventDate: null,
      source: 'relay',
    });
    await Promise.resolve();
    u.clock.advance(2 * 3_600_000);
    expect(u.sent).toHaveLength(0);
  });
});
