import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES, type AlertRules } from '../../../src/shared/domain.js';
import { inQuietHours, matchesEventDate, matchesPost } from '../../../src/main/alerts/rules.js';
import { ed, post } from './helpers.js';

const rules = (over: Partial<AlertRules> = {}): AlertRules => ({ ...DEFAULT_ALERT_RULES, ...over });

describe('event rules', () => {
  it('volatility at or above the threshold', () => {
    expect(matchesEventDate(ed({ volatility: 'HIGH' }), rules(), 'released')).toBe(true);
    expect(matchesEventDate(ed({ volatility: 'MEDIUM' }), rules(), 'released')).toBe(false);
    const medium = rules({ minVolatility: 'MEDIUM' });
    expect(matchesEventDate(ed({ volatility: 'MEDIUM' }), medium, 'released')).toBe(true);
    expect(matchesEventDate(ed({ volatility: 'HIGH' }), medium, 'released')).toBe(true);
    expect(matchesEventDate(ed({ volatility: 'LOW' }), medium, 'released')).toBe(false);
  });

  it('countries and currencies: empty means any', () => {
    expect(matchesEventDate(ed(), rules({ countries: ['UK', 'EMU'] }), 'released')).toBe(false);
    expect(matchesEventDate(ed(), rules({ countries: ['US'] }), 'released')).toBe(true);
    expect(matchesEventDate(ed(), rules({ currencies: ['EUR'] }), 'released')).toBe(false);
    expect(matchesEventDate(ed(), rules({ currencies: ['USD'] }), 'released')).toBe(true);
    expect(
      matchesEventDate(ed(), rules({ countries: ['US'], currencies: ['EUR'] }), 'released'),
    ).toBe(false);
  });

  it('a watched event alerts below the threshold and outside the countries', () => {
    const low = ed({ volatility: 'LOW', countryCode: 'JP', currencyCode: 'JPY' });
    const r = rules({ countries: ['US'], currencies: ['USD'] });
    expect(matchesEventDate(low, r, 'released')).toBe(false);
    expect(matchesEventDate(low, { ...r, watchedEventIds: ['e1'] }, 'released')).toBe(true);
  });

  it('each change kind can be switched off, even for watched events', () => {
    expect(matchesEventDate(ed(), rules(), 'added')).toBe(false); // off by default
    expect(
      matchesEventDate(
        ed(),
        rules({ changes: { ...DEFAULT_ALERT_RULES.changes, added: true } }),
        'added',
      ),
    ).toBe(true);
    const noRevisions = rules({
      watchedEventIds: ['e1'],
      changes: { ...DEFAULT_ALERT_RULES.changes, revised: false },
    });
    expect(matchesEventDate(ed(), noRevisions, 'revised')).toBe(false);
    expect(matchesEventDate(ed(), noRevisions, 'released')).toBe(true);
  });
});

describe('news rules', () => {
  const on = (over: Partial<AlertRules>) => rules({ newsEnabled: true, ...over });

  it('nothing unless news alerts are on', () => {
    expect(matchesPost(post(), rules({ newsKeywords: ['powell'] }))).toBe(false);
  });

  it('keywords: title or summary, any case, whole words', () => {
    expect(matchesPost(post(), on({ newsKeywords: ['FED'] }))).toBe(true); // title
    expect(matchesPost(post(), on({ newsKeywords: ['powell'] }))).toBe(true); // summary
    expect(matchesPost(post(), on({ newsKeywords: ['fe', 'hike'] }))).toBe(false); // not words
    expect(matchesPost(post(), on({ newsKeywords: ['25 bp'] }))).toBe(true); // phrase
    expect(matchesPost(post({ summary: null }), on({ newsKeywords: ['powell'] }))).toBe(false);
  });

  it('categories (and tags), any case', () => {
    expect(matchesPost(post(), on({ newsCategories: ['central banks'] }))).toBe(true);
    expect(matchesPost(post(), on({ newsCategories: ['usd'] }))).toBe(true);
    expect(matchesPost(post(), on({ newsCategories: ['Crypto'] }))).toBe(false);
  });

  it('no keywords and no categories: no news alerts at all', () => {
    expect(matchesPost(post(), on({}))).toBe(false);
  });
});

describe('quiet hours', () => {
  const q = (start: string, end: string, timeZone: string) =>
    rules({ quietHours: { enabled: true, start, end, timeZone } });
  const at = (iso: string) => Date.parse(iso);

  it('a window crossing midnight covers late evening and early morning only', () => {
    const r = q('22:00', '07:00', 'UTC');
    expect(inQuietHours(at('2026-11-06T23:30:00Z'), r, 'UTC')).toBe(true);
    expect(inQuietHours(at('2026-11-07T03:00:00Z'), r, 'UTC')).toBe(true);
    expect(inQuietHours(at('2026-11-07T07:00:00Z'), r, 'UTC')).toBe(false); // end is open
    expect(inQuietHours(at('2026-11-06T21:59:00Z'), r, 'UTC')).toBe(false);
    expect(inQuietHours(at('2026-11-06T13:30:00Z'), r, 'UTC')).toBe(false);
  });

  it('a same-day window', () => {
    const r = q('12:00', '14:00', 'UTC');
    expect(inQuietHours(at('2026-11-06T13:30:00Z'), r, 'UTC')).toBe(true);
    expect(inQuietHours(at('2026-11-06T14:30:00Z'), r, 'UTC')).toBe(false);
  });

  it('is judged in its own zone, or the app’s zone for "system"', () => {
    const tokyo = q('22:00', '07:00', 'Asia/Tokyo');
    // 13:30 UTC = 22:30 in Tokyo
    expect(inQuietHours(at('2026-11-06T13:30:00Z'), tokyo, 'UTC')).toBe(true);
    const system = q('22:00', '07:00', 'system');
    expect(inQuietHours(at('2026-11-06T13:30:00Z'), system, 'Asia/Tokyo')).toBe(true);
    expect(inQuietHours(at('2026-11-06T13:30:00Z'), system, 'Europe/London')).toBe(false);
  });

  it('keeps its local meaning on a DST day', () => {
    const ny = q('22:00', '07:00', 'America/New_York');
    // 8 Mar 2026: clocks go from 02:00 EST to 03:00 EDT
    expect(inQuietHours(at('2026-03-08T04:00:00Z'), ny, 'UTC')).toBe(true); // 23:00 EST
    expect(inQuietHours(at('2026-03-08T10:30:00Z'), ny, 'UTC')).toBe(true); // 06:30 EDT
    expect(inQuietHours(at('2026-03-08T11:30:00Z'), ny, 'UTC')).toBe(false); // 07:30 EDT
    // the same UTC instant the day before was still 06:30 EST → quiet; an hour later 07:30 → not
    expect(inQuietHours(at('2026-03-07T11:30:00Z'), ny, 'UTC')).toBe(true); // 06:30 EST
    expect(inQuietHours(at('2026-03-07T12:30:00Z'), ny, 'UTC')).toBe(false); // 07:30 EST
  });

  it('disabled, empty or malformed windows are never quiet', () => {
    const t = at('2026-11-06T23:30:00Z');
    expect(inQuietHours(t, rules(), 'UTC')).toBe(false);
    expect(inQuietHours(t, q('22:00', '22:00', 'UTC'), 'UTC')).toBe(false);
    expect(inQuietHours(t, q('late', '07:00', 'UTC'), 'UTC')).toBe(false);
  });
});
