import { renderAlertTimes } from '../../../src/main/alerts/zone.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES, type DomainChange } from '../../../src/shared/domain.js';
import { ed, post, rig } from './helpers.js';

const released = (source: DomainChange['source'], over = {}): DomainChange => ({
  kind: 'released',
  eventDate: ed(over),
  source,
});

describe('what gets recorded', () => {
  it('a release alerts once, whatever the source and however often it is seen', () => {
    const t = rig();
    expect(t.apply(released('relay'))).toHaveLength(1);
    expect(t.apply(released('relay'))).toHaveLength(0);
    expect(t.apply(released('poll'))).toHaveLength(0);
    expect(t.apply(released('webhook'))).toHaveLength(0);
    expect(t.store.alerts).toHaveLength(1);
    expect(t.recorded).toHaveLength(1);
    t.clock.advance(5_000);
    expect(t.sent).toEqual([
      {
        title: 'US Nonfarm Payrolls',
        body: '275K vs 200K consensus (prev 229K) — beat',
        target: { type: 'eventDate', eventDateId: 'ed1', eventId: 'e1' },
        alertIds: [1],
        silent: false,
        volatility: 'HIGH',
      },
    ]);
  });

  it('a corrected print alerts once under the revisions rule, with the figure it replaced', () => {
    const corrected = (actual: number, previousActual: number): DomainChange => ({
      kind: 'corrected',
      eventDate: ed({ actual }),
      previousActual,
      source: 'webhook',
    });
    const t = rig();
    expect(t.apply(corrected(275, 234))).toHaveLength(1);
    expect(t.apply({ ...corrected(275, 234), source: 'poll' })).toHaveLength(0);
    t.clock.advance(5_000);
    expect(t.sent.map((n) => `${n.title}: ${n.body}`)).toEqual([
      'US Nonfarm Payrolls corrected: 275K, was 234K',
    ]);
    const quiet = rig({ changes: { ...DEFAULT_ALERT_RULES.changes, corrected: false } });
    expect(quiet.apply(corrected(275, 234))).toHaveLength(0);
  });

  it('after a restart (a new engine on the same store) the same release does not alert again', () => {
    const first = rig();
    first.apply(released('relay'));
    first.e.stop();
    const second = rig({}, { store: first.store, clock: first.clock });
    second.clock.advance(60_000);
    expect(second.apply(released('backfill'))).toHaveLength(0);
    expect(second.apply(released('poll'))).toHaveLength(0);
    second.clock.advance(5_000);
    expect(second.sent).toHaveLength(0);
    expect(first.store.alerts).toHaveLength(1);
  });

  it('every path makes one decision: a night-old print is history, a 20-minute-old one is late and silent', () => {
    const t = rig();
    for (const source of ['backfill', 'relay', 'poll'] as const) {
      t.apply(released(source, { id: 'overnight', dateUtc: '2026-11-06T01:00:00Z' }));
    }
    t.apply(released('backfill', { id: 'eleven-min', dateUtc: '2026-11-06T13:19:00Z' }));
    t.apply(released('poll', { id: 'twenty-min', dateUtc: '2026-11-06T13:10:00Z' }));
    t.apply(released('relay', { id: 'twenty-min', dateUtc: '2026-11-06T13:10:00Z' }));
    expect(
      t.store.alerts.map((a) => [a.target.type === 'eventDate' && a.target.eventDateId, a.late]),
    ).toEqual([
      ['eleven-min', false],
      ['twenty-min', true],
    ]);
    // each alert carries its receipt: the path and the print it is measured from
    expect(t.store.alerts[1]?.receipt).toMatchObject({
      path: 'poll',
      scheduledAt: Date.parse('2026-11-06T13:10:00Z'),
      printAt: Date.parse('2026-11-06T13:10:00Z'),
      relayReceivedAt: null,
      appliedAt: t.clock.now,
    });
    expect(t.store.alerts[1]?.title).toBe('Late print — US Nonfarm Payrolls');
    t.clock.advance(5_000);
    // grouped with an on-time print it has sound; alone, a late print is silent
    expect(t.sent.map((n) => n.silent)).toEqual([false]);
    const late = rig();
    late.apply(released('backfill', { id: 'twenty-min', dateUtc: '2026-11-06T13:10:00Z' }));
    late.clock.advance(5_000);
    expect(late.sent.map((n) => n.silent)).toEqual([true]);
  });

  it('prints from before the app watched the calendar never alert (a first start loads history)', () => {
    const t = rig({}, { extra: { coveredSince: () => Date.parse('2026-11-06T13:20:00Z') } });
    t.apply(released('backfill', { id: 'before', dateUtc: '2026-11-06T13:19:00Z' }));
    t.apply(released('backfill', { id: 'after', dateUtc: '2026-11-06T13:21:00Z' }));
    expect(
      t.store.alerts.map((a) => a.target.type === 'eventDate' && a.target.eventDateId),
    ).toEqual(['after']);
  });

  it('revisions, when the rules ask for them, alert once per revised value', () => {
    const t = rig({ changes: { ...DEFAULT_ALERT_RULES.changes, revised: true } });
    const rev = (value: number): DomainChange => ({
      kind: 'revised',
      eventDate: ed({ revised: value }),
      previousRevised: null,
      withPrint: false,
      source: 'relay',
    });
    expect(rig().apply(rev(210))).toHaveLength(0);
    expect(t.apply(rev(210))).toHaveLength(1);
    expect(t.apply(rev(210))).toHaveLength(0);
    expect(t.apply(rev(205))).toHaveLength(1);
    expect(t.store.alerts.map((a) => a.body)).toEqual([
      'Previous now 210K (was 229K)',
      'Previous now 205K (was 229K)',
    ]);
  });

  it('reschedules alert once per new time, in the user’s zone', () => {
    const t = rig({}, { timeZone: 'America/New_York' });
    const moved = (to: string): DomainChange => ({
      kind: 'rescheduled',
      eventDate: ed({ actual: null, dateUtc: to }),
      fromDateUtc: '2026-11-06T13:30:00Z',
      source: 'relay',
    });
    t.apply(moved('2026-11-06T15:00:00Z'));
    t.apply(moved('2026-11-06T15:00:00Z'));
    t.apply(moved('2026-11-06T16:00:00Z'));
    // stored with time tokens, shown in the zone of the moment (here New York)
    expect(t.store.alerts.map((a) => renderAlertTimes(a.body, 'America/New_York', 'h23'))).toEqual([
      'Moved to Fri 6 Nov 10:00 (was Fri 6 Nov 08:30)',
      'Moved to Fri 6 Nov 11:00 (was Fri 6 Nov 08:30)',
    ]);
  });

  it('the notification shows times in the zone of the moment it is shown, not of the record', () => {
    let zone = 'America/New_York';
    const t = rig({}, { extra: { timeZone: () => zone } });
    t.apply({
      kind: 'rescheduled',
      eventDate: ed({ actual: null, dateUtc: '2026-11-06T15:00:00Z' }),
      fromDateUtc: '2026-11-06T13:30:00Z',
      source: 'relay',
    });
    zone = 'Europe/London'; // the user switches zones before the notification is shown
    t.clock.advance(2_000); // past the grouping window
    expect(t.sent[0]?.body).toBe('Moved to Fri 6 Nov 15:00 (was Fri 6 Nov 13:30)');
    // the history keeps the tokens, so the Alerts screen renders them in today's zone
    expect(t.store.alerts[0]?.body).toMatch(/^Moved to \{dt:2026-11-06T15:00:00/);
  });

  it('added and removed alert only when switched on, never for a backfill’s initial load', () => {
    const changes = { ...DEFAULT_ALERT_RULES.changes, added: true, removed: true };
    const t = rig({ changes });
    const future = ed({ id: 'new', actual: null, dateUtc: '2026-11-10T13:30:00Z' });
    t.apply({ kind: 'eventDateAdded', eventDate: future, source: 'backfill' });
    t.apply({ kind: 'eventDateAdded', eventDate: future, source: 'relay' });
    t.apply({
      kind: 'eventDateRemoved',
      eventDateId: 'new',
      eventId: 'e1',
      eventDate: future,
      source: 'relay',
    });
    expect(t.store.alerts.map((a) => [a.kind, a.title])).toEqual([
      ['added', 'US Nonfarm Payrolls added'],
      ['removed', 'US Nonfarm Payrolls removed'],
    ]);
    const off = rig();
    off.apply({ kind: 'eventDateAdded', eventDate: future, source: 'relay' });
    expect(off.store.alerts).toHaveLength(0);
  });

  it('news alerts once per post and culture; updates and backfills do not alert', () => {
    const t = rig({ newsEnabled: true, newsKeywords: ['powell'] });
    t.apply({ kind: 'postPublished', post: post(), source: 'relay' });
    t.apply({ kind: 'postPublished', post: post(), source: 'poll' });
    t.apply({ kind: 'postPublished', post: post({ culture: 'es-ES' }), source: 'relay' });
    t.apply({ kind: 'postUpdated', post: post({ id: 'p2' }), source: 'relay' });
    t.apply({ kind: 'postPublished', post: post({ id: 'p3' }), source: 'backfill' });
    expect(t.store.alerts.map((a) => a.target)).toEqual([
      { type: 'post', postId: 'p1', culture: 'en-US' },
      { type: 'post', postId: 'p1', culture: 'es-ES' },
    ]);
  });

  it('changes below the rules leave no trace', () => {
    const t = rig();
    t.apply(released('relay', { volatility: 'LOW' }));
    t.apply({ kind: 'eventDateUpdated', eventDate: ed(), keys: ['consensus'], source: 'relay' });
    t.apply({ kind: 'postRemoved', postId: 'p1', culture: 'en-US', source: 'relay' });
    t.clock.advance(5_000);
    expect(t.store.alerts).toHaveLength(0);
    expect(t.sent).toHaveLength(0);
  });

  it('a failing history listener (after the commit) is reported; delivery goes on', () => {
    const errors: unknown[] = [];
    const t = rig({}, { extra: { onError: (e) => errors.push(e) } });
    t.e.onDidRecord(() => {
      throw new Error('renderer gone');
    });
    expect(t.apply(released('relay'))).toHaveLength(1);
    expect(errors).toHaveLength(1);
    t.clock.advance(5_000);
    expect(t.sent).toHaveLength(1);
  });
});
