import { describe, expect, it } from 'vitest';
import {
  addedText,
  groupText,
  newsText,
  releaseBody,
  releaseText,
  reminderText,
  removedText,
  rescheduledText,
  revisedText,
} from '../../../src/main/alerts/message.js';
import { renderAlertTimes } from '../../../src/main/alerts/zone.js';
import { ed, post } from './helpers.js';

describe('release message', () => {
  it('reads like a trader says it: actual vs consensus, previous, beat or miss', () => {
    expect(releaseText(ed())).toEqual({
      title: 'US Nonfarm Payrolls',
      body: '275K vs 200K consensus (prev 229K) — beat',
    });
  });

  it('formats units and potencies: %, K, M, B, $ and plain units', () => {
    const pct = { unit: '%', potency: 'ZERO' };
    expect(releaseBody(ed({ ...pct, actual: 4.1, consensus: 4.2, previous: 4.2 }))).toBe(
      '4.1% vs 4.2% consensus (prev 4.2%) — beat',
    );
    expect(
      releaseBody(
        ed({
          potency: 'M',
          actual: 1.25,
          consensus: 1.3,
          previous: 1.1,
          isBetterThanExpected: false,
        }),
      ),
    ).toBe('1.25M vs 1.30M consensus (prev 1.10M) — miss');
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
    ).toBe('-$70.2B vs -$68.0B consensus (prev -$71.5B) — miss');
    expect(
      releaseBody(
        ed({
          unit: 'bcf',
          potency: 'ZERO',
          actual: 12,
          consensus: 12,
          previous: 8,
          isBetterThanExpected: null,
        }),
      ),
    ).toBe('12 bcf vs 12 bcf consensus (prev 8 bcf) — in line');
  });

  it('prints every figure with the release’s own precision (52.0, 3.00%, 4.191%)', () => {
    const pct = { unit: '%', potency: 'ZERO', isBetterThanExpected: null };
    expect(
      releaseBody(ed({ unit: null, potency: 'ZERO', actual: 55.3, consensus: 52, previous: 51.8 })),
    ).toBe('55.3 vs 52.0 consensus (prev 51.8) — beat');
    expect(releaseBody(ed({ ...pct, actual: 3, consensus: 2.7, previous: 2.75 }))).toBe(
      '3.00% vs 2.70% consensus (prev 2.75%) — beat',
    );
    expect(releaseBody(ed({ ...pct, actual: 4.201, consensus: 4.2, previous: 4.191 }))).toBe(
      '4.201% vs 4.200% consensus (prev 4.191%) — beat',
    );
  });

  it('handles negative prints and a miss', () => {
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
  });

  it('leaves out what is missing: no consensus, no previous', () => {
    expect(releaseBody(ed({ consensus: null, isBetterThanExpected: null }))).toBe(
      '275K (prev 229K)',
    );
    expect(releaseBody(ed({ previous: null }))).toBe('275K vs 200K consensus — beat');
    expect(releaseBody(ed({ consensus: null, previous: null, isBetterThanExpected: null }))).toBe(
      '275K',
    );
  });

  it('shows a revised previous beside the original', () => {
    expect(releaseBody(ed({ revised: 210 }))).toBe(
      '275K vs 200K consensus (prev 210K, revised from 229K) — beat',
    );
    // revised to the same figure: nothing to point out
    expect(releaseBody(ed({ revised: 229 }))).toBe('275K vs 200K consensus (prev 229K) — beat');
  });

  it('says a speech or a figure-less release is on, and flags preliminary prints', () => {
    expect(releaseBody(ed({ actual: null, isSpeech: true, name: 'Fed Chair Powell Speech' }))).toBe(
      'Speech under way',
    );
    expect(releaseText(ed({ isPreliminary: true })).title).toBe('US Nonfarm Payrolls (prelim)');
  });
});

describe('other messages', () => {
  it('revised: the new previous and what it was', () => {
    expect(revisedText(ed({ revised: 210 }), null)).toEqual({
      title: 'US Nonfarm Payrolls revised',
      body: 'Previous now 210K (was 229K)',
    });
    expect(revisedText(ed({ revised: 205 }), 210).body).toBe('Previous now 205K (was 210K)');
  });

  it('rescheduled: new and old times in the zone and clock of the moment it is read', () => {
    const moved = rescheduledText(ed({ dateUtc: '2026-11-06T14:00:00Z' }), NFP);
    // one stored text, rendered in whatever the settings are when it is shown
    expect(renderAlertTimes(moved.body, 'Europe/London', 'h23')).toBe(
      'Moved to Fri 6 Nov 14:00 (was Fri 6 Nov 13:30)',
    );
    expect(renderAlertTimes(moved.body, 'America/New_York', 'h12')).toBe(
      'Moved to Fri 6 Nov 9:00 AM (was Fri 6 Nov 8:30 AM)',
    );
    // across a DST change: 13:30 UTC is 09:30 EDT before 1 Nov 2026, 08:30 EST after
    const acrossDst = rescheduledText(
      ed({ dateUtc: '2026-11-02T13:30:00Z' }),
      '2026-10-30T13:30:00Z',
    );
    expect(renderAlertTimes(acrossDst.body, 'America/New_York', 'h23')).toBe(
      'Moved to Mon 2 Nov 08:30 (was Fri 30 Oct 09:30)',
    );
  });

  it('an unknown zone falls back to the machine’s zone instead of failing', () => {
    const { body } = rescheduledText(ed(), NFP);
    const shown = renderAlertTimes(body, 'Not/AZone', 'h23');
    expect(shown).toBe(renderAlertTimes(body, 'system', 'h23'));
    expect(shown).not.toContain('Invalid');
  });

  it('added and removed say when', () => {
    const added = addedText(ed({ isTentative: true }));
    expect(added.title).toBe('US Nonfarm Payrolls added');
    expect(renderAlertTimes(added.body, 'UTC', 'h23')).toBe(
      'Scheduled for Fri 6 Nov 13:30 (tentative)',
    );
    const removed = removedText(ed(), 'ed1');
    expect(removed.title).toBe('US Nonfarm Payrolls removed');
    expect(renderAlertTimes(removed.body, 'UTC', 'h23')).toBe(
      'Taken off the calendar (was due Fri 6 Nov 13:30)',
    );
  });

  it('reminder: what is coming and the numbers to watch', () => {
    expect(
      reminderText(
        ed({
          name: 'CPI m/m',
          actual: null,
          unit: '%',
          potency: 'ZERO',
          consensus: 0.3,
          previous: 0.4,
        }),
        5,
      ),
    ).toEqual({ title: 'US CPI m/m in 5 min', body: 'consensus 0.3%, prev 0.4%' });
    expect(reminderText(ed({ actual: null, consensus: null, previous: null }), 15).body).toBe(
      'No consensus yet',
    );
  });

  it('news: the post’s title and summary', () => {
    expect(newsText(post())).toEqual({
      title: 'Fed hikes rates by 25 bp',
      body: 'Powell signals more tightening ahead',
    });
  });

  it('a group names the country and time when releases share them', () => {
    const items = ['Nonfarm Payrolls', 'Unemployment Rate', 'Average Hourly Earnings'].map((n) => ({
      kind: 'released' as const,
      title: `US ${n}`,
      body: 'x',
      countryCode: 'US',
      dateUtc: NFP,
    }));
    expect(groupText(items, 'Europe/Berlin', 'h23').title).toBe('US: 3 releases at 14:30');
    expect(groupText([...items, { ...items[0]!, countryCode: 'CA' }], 'UTC', 'h23').title).toBe(
      '4 releases',
    );
    expect(groupText([items[0]!, { kind: 'news', title: 'Fed', body: '' }], 'UTC', 'h23')).toEqual({
      title: '2 alerts',
      body: 'US Nonfarm Payrolls: x\nFed',
    });
  });
});

const NFP = '2026-11-06T13:30:00Z';
