import { describe, expect, it } from 'vitest';
import type { DomainChange } from '../../../src/shared/domain.js';
import { ed, post, rig } from './helpers.js';

const print = (id: string, over = {}): DomainChange => ({
  kind: 'released',
  eventDate: ed({ id, ...over }),
  source: 'relay',
});

const jobsReport = [
  print('nfp'),
  print('ur', {
    name: 'Unemployment Rate',
    unit: '%',
    potency: 'ZERO',
    actual: 4.1,
    consensus: 4.2,
    previous: 4.2,
  }),
  print('ahe', {
    name: 'Average Hourly Earnings m/m',
    unit: '%',
    potency: 'ZERO',
    actual: 0.4,
    consensus: 0.3,
    previous: 0.2,
  }),
];

describe('native delivery', () => {
  it('three releases at once → one grouped notification with a line each; a fourth 10 s later → its own', () => {
    const t = rig({}, { timeZone: 'Europe/London' });
    for (const c of jobsReport) t.apply(c);
    t.clock.advance(1_000);
    expect(t.sent).toEqual([
      {
        title: 'US: 3 releases at 13:30',
        body: [
          'US Nonfarm Payrolls: 275K vs 200K consensus (prev 229K) — beat',
          'US Unemployment Rate: 4.1% vs 4.2% consensus (prev 4.2%) — beat',
          'US Average Hourly Earnings m/m: 0.4% vs 0.3% consensus (prev 0.2%) — beat',
        ].join('\n'),
        target: { type: 'alerts' },
        alertIds: [1, 2, 3],
        silent: false,
        volatility: 'HIGH',
      },
    ]);
    t.clock.advance(10_000);
    t.apply(print('claims', { name: 'Initial Jobless Claims', actual: 220, consensus: 225 }));
    t.clock.advance(1_000);
    expect(t.sent).toHaveLength(2);
    expect(t.sent[1]).toMatchObject({
      title: 'US Initial Jobless Claims',
      target: { type: 'eventDate', eventDateId: 'claims', eventId: 'e1' },
      alertIds: [4],
    });
  });

  it('a notification carries the highest impact it groups, for its sound; news carries none', () => {
    const t = rig({ minVolatility: 'LOW', newsEnabled: true, newsKeywords: ['Fed'] });
    t.apply(print('low', { volatility: 'LOW' }));
    t.clock.advance(2_000);
    t.apply(print('medium', { volatility: 'MEDIUM' }));
    t.apply(print('high', { volatility: 'HIGH' }));
    t.clock.advance(60_000);
    t.apply({ kind: 'postPublished', post: post(), source: 'relay' });
    t.clock.advance(150);
    expect(t.sent.map((n) => [n.alertIds.length, n.volatility])).toEqual([
      [1, 'LOW'],
      [2, 'HIGH'],
      [1, undefined],
    ]);
  });

  it('a print after a calm is shown within 150 ms; releases applied within it share one', () => {
    const t = rig();
    t.apply(print('nfp'));
    t.clock.advance(149);
    expect(t.sent).toEqual([]); // companions printed at the same moment may still come
    t.clock.advance(1);
    expect(t.sent.map((n) => n.alertIds)).toEqual([[1]]);
    const later = rig();
    later.apply(print('nfp')); // separate webhooks, 100 ms apart
    later.clock.advance(100);
    for (const c of jobsReport.slice(1)) later.apply(c);
    later.clock.advance(50);
    expect(later.sent.map((n) => n.alertIds)).toEqual([[1, 2, 3]]);
  });

  it('a print of the same moment as the one just shown is not held for the grouping window', () => {
    const t = rig();
    t.apply(print('nfp'));
    t.clock.advance(150);
    t.clock.advance(300); // the unemployment rate, printed at 13:30:00 too, arrives late
    t.apply(print('ur', { countryCode: 'US', name: 'Unemployment Rate' }));
    t.clock.advance(150);
    expect(t.sent.map((n) => n.alertIds)).toEqual([[1], [2]]);
  });

  it('a busy moment arriving in pieces: each piece at once, none waits for the rate limit', () => {
    const t = rig();
    // six releases of 13:30:00, their webhooks 300 ms apart
    for (let i = 0; i < 6; i++) {
      t.apply(print(`r${i}`, { name: `Release ${i}` }));
      t.clock.advance(300);
    }
    expect(t.sent.map((n) => n.alertIds)).toEqual([[1], [2], [3], [4], [5], [6]]);
    // they counted as one notification towards the four a minute: three more may follow
    for (let i = 0; i < 4; i++) {
      t.apply(print(`later${i}`, { dateUtc: `2026-11-06T13:3${i + 1}:00Z` }));
      t.clock.advance(2_000);
    }
    expect(t.sent).toHaveLength(9);
  });

  it('alerts right after a notification wait out the window and go together', () => {
    const t = rig();
    t.apply(print('a'));
    t.clock.advance(300);
    expect(t.sent).toHaveLength(1);
    // releases of other moments (a same-moment print would not wait: above)
    t.apply(print('b', { dateUtc: '2026-11-06T13:31:00Z' }));
    t.clock.advance(500);
    t.apply(print('c', { dateUtc: '2026-11-06T13:31:00Z' }));
    t.clock.advance(500);
    expect(t.sent).toHaveLength(1); // still inside the 1.5 s window
    t.clock.advance(1_000);
    expect(t.sent.map((n) => n.alertIds)).toEqual([[1], [2, 3]]);
  });

  it('at most four a minute; the excess joins the next group and stays in the history', () => {
    const t = rig();
    for (let i = 0; i < 7; i++) {
      t.apply(print(`x${i}`, { countryCode: i % 2 ? 'US' : 'CA' }));
      t.clock.advance(5_000);
    }
    // 35 s in: four sent, three waiting
    expect(t.sent.map((n) => n.alertIds)).toEqual([[1], [2], [3], [4]]);
    t.clock.advance(30_000);
    expect(t.sent.map((n) => n.alertIds)).toEqual([[1], [2], [3], [4], [5, 6, 7]]);
    expect(t.sent[4]?.title).toBe('3 releases');
    expect(t.store.alerts).toHaveLength(7);
  });

  it('quiet hours: notifications still come, silently', () => {
    const t = rig({
      quietHours: { enabled: true, start: '22:00', end: '07:00', timeZone: 'Asia/Tokyo' },
    });
    t.apply(print('a')); // 13:30 UTC = 22:30 in Tokyo
    t.clock.advance(1_000);
    expect(t.sent[0]?.silent).toBe(true);
    const day = rig({
      quietHours: { enabled: true, start: '22:00', end: '07:00', timeZone: 'Europe/London' },
    });
    day.apply(print('a'));
    day.clock.advance(1_000);
    expect(day.sent[0]?.silent).toBe(false);
  });

  it('paused: no native notification, but the history keeps every alert; after the pause they show again', () => {
    const until = Date.parse('2026-11-06T14:00:00Z');
    const t = rig({ pausedUntil: until });
    for (const c of jobsReport) t.apply(c);
    t.clock.advance(60_000);
    expect(t.sent).toHaveLength(0);
    expect(t.store.alerts).toHaveLength(3);
    expect(t.store.alerts.every((a) => !a.read)).toBe(true);
    t.clock.advance(until - t.clock.now + 1);
    t.apply(print('later'));
    t.clock.advance(1_000);
    expect(t.sent.map((n) => n.alertIds)).toEqual([[4]]);
  });

  it('a failing native listener is reported, not thrown, and later alerts still go out', () => {
    const errors: unknown[] = [];
    let calls = 0;
    const t = rig({}, { extra: { onError: (e) => errors.push(e) } });
    t.e.onDidNotify(() => {
      calls++;
      if (calls === 1) throw new Error('notification daemon down');
    });
    t.apply(print('a'));
    expect(() => t.clock.advance(1_000)).not.toThrow();
    t.clock.advance(10_000);
    t.apply(print('b'));
    t.clock.advance(1_000);
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
  });

  it('stop() clears every timer: nothing is delivered afterwards', () => {
    const t = rig({ watchedEventIds: ['e1'] });
    t.apply(print('a'));
    t.e.rescheduleReminders();
    t.e.stop();
    expect(t.clock.pending).toBe(0);
    t.clock.advance(3_600_000);
    expect(t.sent).toHaveLength(0);
  });
});
