/** The gateway's allow-list: the app's reads map to canonical service paths; nothing else does. */
import { describe, expect, it } from 'vitest';
import { matchReadRoute } from '../../../src/relay/gateway/read-routes.js';

const q = (s = '') => new URLSearchParams(s);
const from = encodeURIComponent('2026-11-20T00:00:00.000Z');
const to = encodeURIComponent('2026-11-27T00:00:00+01:00');

describe('matchReadRoute', () => {
  it('maps each read the app makes, with how long it may be kept', () => {
    const cases: [string, string, string, string, number][] = [
      [
        'calendar',
        `/en/api/v1/eventDates/${from}/${to}`,
        'volatilities=HIGH&countries=US',
        'eventDates',
        1_000,
      ],
      ['calendar', '/en/api/v1/eventDates/ed-1', '', 'eventDate', 1_000],
      ['calendar', '/de/api/v1/events/ev-1', '', 'event', 60_000],
      ['calendar', '/en/api/v1/events/ev-1/historical', '', 'historical', 60_000],
      ['calendar', '/en/api/v1/categories', '', 'categories', 600_000],
      ['calendar', '/en/api/v1/marketImpact/assets', '', 'assets', 600_000],
      ['news', '/v4/en-US/post/p-1', '', 'post', 60_000],
      ['news', '/v4/en-US/post/filter/GeneralFeed', 'page=3', 'newsFeed', 5_000],
    ];
    for (const [scope, path, query, name, ttl] of cases)
      expect(matchReadRoute(scope, path, q(query)), path).toMatchObject({
        scope,
        name,
        ttlMs: ttl,
      });
    expect(
      matchReadRoute('calendar', `/en/api/v1/eventDates/${from}/${to}`, q('volatilities=HIGH'))
        ?.upstreamPath,
    ).toBe(
      // Rounded out to whole minutes (already whole here), in UTC: one key per window.
      `/en/api/v1/eventDates/${from}/${encodeURIComponent('2026-11-26T23:00:00.000Z')}?volatilities=HIGH`,
    );
  });

  it('refuses webhook management, other paths, odd segments and unknown parameters', () => {
    const refused: [string, string, string][] = [
      ['calendar', '/webhooks', ''],
      ['calendar', '/webhooks/1', ''],
      ['news', '/webhooks', ''],
      ['calendar', '/en/api/v1/events/..%2Fwebhooks', ''],
      ['calendar', '/en/api/v1/events/%2e%2e', ''],
      ['calendar', '/en/api/v1/events/..', ''],
      ['calendar', '/en/api/v1/events/a%5Cb', ''],
      ['calendar', '/en/api/v1/events/%E0%A4%A', ''],
      ['calendar', '/en/api/v1/events/ev-1/historical/more', ''],
      ['calendar', '/en/api/v1/categories', 'x=1'],
      ['calendar', `/en/api/v1/eventDates/${from}/${to}`, 'url=https://evil'],
      ['calendar', '/en/api/v1/eventDates/not-a-date/also-not', ''],
      ['calendar', '/en/api/v2/categories', ''],
      ['calendar', '//en/api/v1/categories', ''],
      ['news', '/v4/en-US/post/filter/GeneralFeed', 'page=0'],
      ['news', '/v4/en-US/post/filter/GeneralFeed', 'page=1&size=1000'],
      ['news', '/v4/en-US/post/p-1', 'culture=x'],
      ['auth', '/v2/token', ''],
      ['calendar', '', ''],
    ];
    for (const [scope, path, query] of refused)
      expect(matchReadRoute(scope, path, q(query)), `${scope} ${path}?${query}`).toBeNull();
  });
});
