/** The optional alert when a news window opens and closes, on a manual clock. */
import { describe, expect, it } from 'vitest';
import { NewsWindowAlerts } from '../../../src/main/notify/news-window-alerts.js';
import type { UpcomingQuery } from '../../../src/main/alerts/port.js';
import { DEFAULT_NEWS_WINDOW, type NewsWindowSettings } from '../../../src/shared/news-windows.js';
import type { NativeNotification } from '../../../src/shared/domain.js';
import { eventDateFixture } from '../../fixtures/domain.js';
import { ManualClock } from '../../support/manual-clock.js';

const T0 = Date.parse('2026-12-04T13:30:00Z');
const MIN = 60_000;
const nfp = eventDateFixture({
  id: 'ed-nfp',
  eventId: 'ev-nfp',
  name: 'Nonfarm Payrolls',
  countryCode: 'US',
  volatility: 'HIGH',
  dateUtc: new Date(T0).toISOString(),
});
const claims = eventDateFixture({
  id: 'ed-claims',
  eventId: 'ev-claims',
  name: 'Initial Jobless Claims',
  countryCode: 'US',
  volatility: 'MEDIUM',
  dateUtc: new Date(T0 + 30 * MIN).toISOString(),
});

function run(settings: NewsWindowSettings, startAt = T0 - 30 * MIN) {
  const clock = new ManualClock(startAt);
  const sent: { at: number; n: NativeNotification }[] = [];
  const alerts = new NewsWindowAlerts({
    settings: () => settings,
    upcoming: (q: UpcomingQuery) =>
      [nfp, claims].filter((d) => d.dateUtc >= q.from && d.dateUtc < q.to),
    timeZone: () => 'America/New_York',
    hourCycle: () => 'h12',
    now: clock.read,
    timers: clock,
    onError: (err) => {
      throw err;
    },
  });
  alerts.onDidNotify((n) => sent.push({ at: clock.now, n }));
  alerts.start();
  return { clock, sent, alerts };
}

describe('news-window alerts', () => {
  it('one alert as the window opens and one as it closes, on time and in the chosen zone', () => {
    const { clock, sent, alerts } = run({ ...DEFAULT_NEWS_WINDOW, enabled: true, alerts: true });
    clock.advance(60 * MIN);
    expect(sent.map(({ at, n }) => [(at - T0) / MIN, n.title, n.body])).toEqual([
      [-2, 'News window open: US NFP', 'No trading until 8:32 AM. US Nonfarm Payrolls 8:30 AM'],
      [2, 'News window closed: US NFP', 'Trading allowed again.'],
    ]);
    expect(sent[0]?.n.target).toEqual({
      type: 'eventDate',
      eventDateId: 'ed-nfp',
      eventId: 'ev-nfp',
    });
    alerts.stop();
    expect(clock.pending).toBe(0);
  });

  it('covers the impacts chosen, and says nothing unless both the mode and its alerts are on', () => {
    const both = run({ ...DEFAULT_NEWS_WINDOW, enabled: true, alerts: true, impacts: ['MEDIUM'] });
    both.clock.advance(70 * MIN);
    expect(both.sent.map(({ at }) => (at - T0) / MIN)).toEqual([28, 32]);
    const quiet = run({ ...DEFAULT_NEWS_WINDOW, enabled: true, alerts: false });
    quiet.clock.advance(60 * MIN);
    expect(quiet.sent).toEqual([]);
  });

  it('started inside a window: it is announced as open at once, then its close', () => {
    const { clock, sent } = run({ ...DEFAULT_NEWS_WINDOW, enabled: true, alerts: true }, T0);
    clock.advance(10 * MIN);
    expect(sent.map(({ at, n }) => [(at - T0) / MIN, n.title, n.body])).toEqual([
      [0, 'News window open: US NFP', 'No trading until 8:32 AM. US Nonfarm Payrolls 8:30 AM'],
      [2, 'News window closed: US NFP', 'Trading allowed again.'],
    ]);
  });

  it('turned on just after a window closed: no "closed" for a window never announced', () => {
    const settings = { ...DEFAULT_NEWS_WINDOW, enabled: true, alerts: false };
    const { clock, sent, alerts } = run(settings, T0 - 30 * MIN);
    clock.advance(32 * MIN + 2_000); // the NFP window closed 2 s ago
    settings.alerts = true;
    alerts.replan();
    clock.advance(10 * MIN);
    expect(sent).toEqual([]);
  });
});
