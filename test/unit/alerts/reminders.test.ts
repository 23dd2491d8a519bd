import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ALERT_RULES,
  type AlertRules,
  type EventDate,
} from '../../../src/shared/domain.js';
import { afterCommit, ed, rig } from './helpers.js';

const MIN = 60_000;
const at = (iso: string) => Date.parse(iso);

/** A watched CPI at 13:30 UTC; the clock starts at 12:00. */
function setup(rules: Partial<AlertRules> = {}, dates?: EventDate[]) {
  const t = rig({ watchedEventIds: ['cpi'], reminderMinutes: 5, ...rules });
  t.clock.now = at('2026-11-06T12:00:00Z');
  t.store.dates = dates ?? [
    ed({
      id: 'cpi-nov',
      eventId: 'cpi',
      name: 'CPI m/m',
      actual: null,
      unit: '%',
      potency: 'ZERO',
      consensus: 0.3,
      previous: 0.4,
      dateUtc: '2026-11-06T13:30:00Z',
    }),
  ];
  return t;
}

const reminders = (t: ReturnType<typeof rig>) => t.sent.filter((n) => n.title.includes(' in '));

describe('reminders', () => {
  it('fire N minutes before a watched release, with the numbers, once', () => {
    const t = setup();
    t.e.rescheduleReminders();
    t.clock.advance(at('2026-11-06T13:24:00Z') - t.clock.now);
    expect(reminders(t)).toHaveLength(0);
    t.clock.advance(MIN + 1_000); // 13:25:01
    expect(reminders(t)).toEqual([
      {
        title: 'US CPI m/m in 5 min',
        body: 'consensus 0.3%, prev 0.4%',
        target: { type: 'eventDate', eventDateId: 'cpi-nov', eventId: 'cpi' },
        alertIds: [1],
        silent: false,
        volatility: 'HIGH',
      },
    ]);
    expect(t.recorded.map((a) => a.kind)).toEqual(['reminder']);
    // a re-plan (rules change) right after does not remind twice
    t.e.rescheduleReminders();
    t.clock.advance(10 * MIN);
    expect(reminders(t)).toHaveLength(1);
  });

  it('follow a reschedule of a watched release, even with reschedule alerts switched off', async () => {
    const t = setup({ changes: { ...DEFAULT_ALERT_RULES.changes, rescheduled: false } });
    t.e.rescheduleReminders();
    t.clock.advance(60 * MIN); // 13:00
    const moved = { ...t.store.dates[0]!, dateUtc: '2026-11-06T14:00:00Z' };
    t.store.dates = [moved];
    t.e.dispatch(
      t.e.recordForChange({
        kind: 'rescheduled',
        eventDate: moved,
        fromDateUtc: '2026-11-06T13:30:00Z',
        source: 'relay',
      }),
    );
    await afterCommit();
    t.clock.advance(30 * MIN); // 13:30: the old reminder time has passed silently
    expect(reminders(t)).toHaveLength(0);
    t.clock.advance(25 * MIN + 1_000); // 13:55
    expect(reminders(t).map((n) => n.title)).toEqual(['US CPI m/m in 5 min']);
    expect(t.store.alerts.map((a) => a.kind)).toEqual(['reminder']); // no reschedule alert
  });

  it('are cancelled when the release is removed', async () => {
    const t = setup();
    t.e.rescheduleReminders();
    const removed = t.store.dates[0]!;
    t.store.dates = [];
    t.e.dispatch(
      t.e.recordForChange({
        kind: 'eventDateRemoved',
        eventDateId: removed.id,
        eventId: removed.eventId,
        eventDate: removed,
        source: 'relay',
      }),
    );
    await afterCommit();
    t.clock.advance(3 * 60 * MIN);
    expect(t.sent).toHaveLength(0);
  });

  it('are armed for a watched release added later', async () => {
    const t = setup({}, []);
    t.e.rescheduleReminders();
    const added = ed({
      id: 'speech',
      eventId: 'cpi',
      actual: null,
      dateUtc: '2026-11-06T12:40:00Z',
    });
    t.store.dates = [added];
    t.e.dispatch(t.e.recordForChange({ kind: 'eventDateAdded', eventDate: added, source: 'poll' }));
    await afterCommit();
    t.clock.advance(36 * MIN);
    expect(reminders(t).map((n) => n.title)).toEqual(['US Nonfarm Payrolls in 5 min']);
  });

  it('none for a time already past, an unwatched event, or with reminders off', () => {
    const late = setup();
    late.clock.now = at('2026-11-06T13:27:00Z'); // 3 min before: the 5-min mark is gone
    late.e.rescheduleReminders();
    late.clock.advance(10 * MIN);
    expect(late.sent).toHaveLength(0);

    const unwatched = setup({ watchedEventIds: ['nfp'] });
    unwatched.e.rescheduleReminders();
    unwatched.clock.advance(3 * 60 * MIN);
    expect(unwatched.sent).toHaveLength(0);

    const off = setup({ reminderMinutes: 0 });
    off.e.rescheduleReminders();
    off.clock.advance(3 * 60 * MIN);
    expect(off.sent).toHaveLength(0);
  });

  it('a release further out than the horizon is picked up by the hourly re-plan', () => {
    const t = setup({}, [
      ed({ id: 'tomorrow', eventId: 'cpi', actual: null, dateUtc: '2026-11-07T09:00:00Z' }),
    ]);
    t.e.rescheduleReminders();
    t.clock.advance(at('2026-11-07T08:54:00Z') - t.clock.now);
    expect(reminders(t)).toHaveLength(0);
    t.clock.advance(MIN + 1_000);
    expect(reminders(t)).toHaveLength(1);
    // only the hourly re-plan and nothing else stays armed
    expect(t.clock.pending).toBeLessThanOrEqual(2);
  });

  it('a reminder that wakes up after the release (laptop asleep) stays quiet', () => {
    const t = setup();
    t.clock.now = at('2026-11-06T13:10:00Z');
    t.e.rescheduleReminders(); // arms 13:25
    // the machine sleeps through 13:25 and 13:30; the timer fires late, at 13:40
    t.clock.sleep(30 * MIN);
    t.clock.advance(0);
    expect(reminders(t)).toHaveLength(0);
    expect(t.store.alerts).toHaveLength(0);
  });

  it('a store that fails while planning is reported, not thrown from a timer', () => {
    const errors: unknown[] = [];
    const t = rig({ watchedEventIds: ['cpi'] }, { extra: { onError: (e) => errors.push(e) } });
    t.store.upcoming = () => {
      throw new Error('database is closed');
    };
    expect(() => t.e.rescheduleReminders()).not.toThrow();
    expect(() => t.clock.advance(2 * 60 * MIN)).not.toThrow();
    expect(errors.length).toBeGreaterThanOrEqual(2);
  });
});
