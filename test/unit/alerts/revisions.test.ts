/**
 * A revised previous (issue #36 item 3), piece by piece: the diff names it and says whether
 * it came with the print; the alert decision tells it in the print's one alert when the rules
 * ask (off by default), alone when it comes later; the exports write the figure it was
 * revised from; the demo revises the indicators agencies revise, the same way every start.
 */
import { describe, expect, it } from 'vitest';
import { decideAlert } from '../../../src/main/alerts/decide.js';
import { diffEventDate } from '../../../src/main/sync/diff.js';
import { toCsv } from '../../../src/renderer/src/lib/export.js';
import { DEFAULT_ALERT_RULES, type AlertRules } from '../../../src/shared/domain.js';
import { describeRelease } from '../../../src/shared/ics.js';
import { alertRulesSchema } from '../../../src/shared/settings-schema.js';
import { generateCalendar } from '../../../src/simulator/data/calendar.js';
import { ed, NFP_TIME } from './helpers.js';

const pending = ed({ actual: null, previous: 119, revised: null, consensus: 150 });
const printed = ed({ actual: 175, previous: 119, revised: 143, consensus: 150 });
const now = Date.parse(NFP_TIME) + 1_000;
const ctx = (revised: boolean, over: Partial<AlertRules> = {}) => ({
  rules: {
    ...DEFAULT_ALERT_RULES,
    watchedEventIds: ['e1'],
    changes: { ...DEFAULT_ALERT_RULES.changes, revised },
    ...over,
  },
  now,
  staleMs: 3_600_000,
});
const alertsOf = (changes: ReturnType<typeof diffEventDate>, c: ReturnType<typeof ctx>) =>
  changes.map((ch) => decideAlert(ch, c)).filter((a) => a !== null);

describe('a revised previous in the alerts', () => {
  it('comes with the print: one alert, naming the revision only when the rules ask', () => {
    const changes = diffEventDate(pending, printed, 'webhook');
    expect(changes.map((c) => c.kind)).toEqual(['released', 'revised']);
    expect(changes[1]).toMatchObject({ withPrint: true, previousRevised: null });

    const on = alertsOf(changes, ctx(true));
    expect(on.map((a) => [a.kind, a.title])).toEqual([
      ['released', 'US Nonfarm Payrolls · previous revised'],
    ]);
    expect(on[0]?.body).toBe('175K vs 150K consensus (prev 143K, revised from 119K) — beat');
    const off = alertsOf(changes, ctx(false));
    expect(off.map((a) => [a.kind, a.title])).toEqual([['released', 'US Nonfarm Payrolls']]);
  });

  it('alone when the print does not alert by the rules, and only while the print is news', () => {
    const changes = diffEventDate(pending, printed, 'webhook');
    const noPrints = {
      changes: { ...DEFAULT_ALERT_RULES.changes, released: false, revised: true },
    };
    expect(alertsOf(changes, ctx(true, noPrints)).map((a) => a.kind)).toEqual(['revised']);
    const later = { ...ctx(true, noPrints), now: now + 13 * 3_600_000 };
    expect(alertsOf(changes, later)).toEqual([]);
  });

  it('after the print: its own alert, once per value, with the rule on only', () => {
    const changes = diffEventDate(printed, { ...printed, revised: 141 }, 'relay');
    expect(changes.map((c) => c.kind)).toEqual(['revised']);
    const [alert] = alertsOf(changes, ctx(true));
    expect(alert).toMatchObject({
      kind: 'revised',
      title: 'US Nonfarm Payrolls revised',
      body: 'Previous now 141K (was 143K)',
      dedupKey: 'revised:ed1:141',
    });
    expect(alertsOf(changes, ctx(false))).toEqual([]);
  });

  it('rules saved before corrections had a switch read it as on', () => {
    const { corrected, ...saved } = DEFAULT_ALERT_RULES.changes;
    expect(corrected).toBe(true);
    const read = alertRulesSchema.parse({ ...DEFAULT_ALERT_RULES, changes: saved });
    expect(read.changes).toEqual({ ...saved, corrected: true });
  });

  it('a corrected figure has its own switch, on by default', () => {
    const changes = diffEventDate(printed, { ...printed, actual: 180 }, 'relay');
    expect(alertsOf(changes, ctx(false)).map((a) => a.kind)).toEqual(['corrected']);
    const off = ctx(false, { changes: { ...DEFAULT_ALERT_RULES.changes, corrected: false } });
    expect(alertsOf(changes, off)).toEqual([]);
  });
});

describe('a revised previous in the exports', () => {
  it('the CSV gives the previous as it stands and the figure it was revised from', () => {
    const [head, row, plain] = toCsv([printed, pending]).split('\r\n');
    expect(head).toContain(',Previous,Previous revised from,Unit');
    expect(row).toMatch(/,175,150,143,119,K$/);
    expect(plain).toMatch(/,,150,119,,K$/);
  });

  it('the calendar entry says "Previous: 143K (revised from 119K)"', () => {
    expect(describeRelease(printed)).toContain('Previous: 143K (revised from 119K)');
    expect(describeRelease(pending)).toContain('Previous: 119K');
  });
});

describe('the demo revises', () => {
  const NOW = Date.parse('2026-12-07T09:00:00Z'); // after a first-Friday payrolls

  it('the previous figure of the indicators agencies revise (payrolls among them), alike on every start', () => {
    const first = generateCalendar(3, NOW);
    const again = generateCalendar(3, NOW);
    const keyOf = new Map(first.events.map((m) => [m.event.id, m.indicator?.key]));
    const revised = first.eventDates.filter((d) => d.revised !== null);
    expect(revised.length).toBeGreaterThanOrEqual(2);
    expect(revised.map((d) => keyOf.get(d.eventId))).toContain('us-nfp');
    for (const d of revised) {
      expect(d.actual).not.toBeNull();
      expect(d.revised).not.toBe(d.previous);
    }
    expect(again.eventDates.map((d) => d.revised)).toEqual(first.eventDates.map((d) => d.revised));
    // histories too: the detail's past releases show revisions
    const nfp = first.events.find((m) => m.indicator?.key === 'us-nfp');
    expect(nfp?.history.filter((h) => h.revised !== null && h.revised !== h.previous).length).toBe(
      nfp?.history.length,
    );
    // an indicator nobody revises (a rate decision) never is
    const fed = first.events.find((m) => m.indicator?.key === 'us-fed');
    expect(fed?.history.every((h) => h.revised === null)).toBe(true);
    // a release not yet printed has no revision yet
    expect(first.eventDates.filter((d) => d.actual === null && d.revised !== null)).toEqual([]);
  });
});
