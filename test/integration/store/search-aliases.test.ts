import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { matchesSearch, parseSearch } from '../../../src/shared/search-aliases.js';
import { ed } from './fixtures.js';

const open: Store[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

/** A store on a real SQLite file holding a week of releases with the names the service uses. */
function seeded(): Store {
  const s = openStore({ path: join(mkdtempSync(join(tmpdir(), 'mb-alias-')), 'cache.db') });
  open.push(s);
  const rows = [
    ['us-cpi', 'US', 'USD', 'Consumer Price Index (YoY)'],
    ['uk-cpi', 'UK', 'GBP', 'Consumer Price Index (YoY)'],
    ['jp-cpi', 'JP', 'JPY', 'National CPI ex Fresh Food (YoY)'],
    ['us-nfp', 'US', 'USD', 'Nonfarm Payrolls'],
    ['us-ism', 'US', 'USD', 'ISM Manufacturing PMI'],
    ['de-pmi', 'DE', 'EUR', 'HCOB Manufacturing PMI'],
    ['us-gdp', 'US', 'USD', 'Gross Domestic Product Annualized'],
    ['us-fomc', 'US', 'USD', 'Fed Interest Rate Decision'],
    ['emu-ecb', 'EMU', 'EUR', 'ECB Main Refinancing Operations Rate'],
    ['emu-lagarde', 'EMU', 'EUR', 'ECB President Lagarde Speech'],
    ['us-cftc', 'US', 'USD', 'CFTC Gold NC Net Positions'],
  ] as const;
  rows.forEach(([id, countryCode, currencyCode, name], i) =>
    s.upsertEventDate(
      ed(id, {
        countryCode,
        currencyCode,
        name,
        dateUtc: `2026-11-${String(10 + i).padStart(2, '0')}T13:30:00Z`,
      }),
      {},
    ),
  );
  return s;
}

const week = { from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' };
const ids = (s: Store, text: string) => s.listEventDates({ ...week, text }).map((r) => r.id);

describe('calendar search aliases', () => {
  it('finds releases by the abbreviations traders type', () => {
    const s = seeded();
    expect(ids(s, 'CPI')).toEqual(['us-cpi', 'uk-cpi', 'jp-cpi']);
    expect(ids(s, 'nfp')).toEqual(['us-nfp']);
    expect(ids(s, 'PMI')).toEqual(['us-ism', 'de-pmi']);
    expect(ids(s, 'GDP')).toEqual(['us-gdp']);
    expect(ids(s, 'FOMC')).toEqual(['us-fomc']);
    expect(ids(s, 'ECB')).toEqual(['emu-ecb', 'emu-lagarde']);
  });

  it('matches a country with a name: "US CPI", "Japan CPI", "EUR PMI"', () => {
    const s = seeded();
    expect(ids(s, 'US CPI')).toEqual(['us-cpi']);
    expect(ids(s, 'japan cpi')).toEqual(['jp-cpi']);
    expect(ids(s, 'DE PMI')).toEqual(['de-pmi']);
    expect(ids(s, 'US Nonfarm')).toEqual(['us-nfp']);
  });

  it('keeps literal substrings, and treats LIKE wildcards as text', () => {
    const s = seeded();
    expect(ids(s, 'Lagarde')).toEqual(['emu-lagarde']);
    expect(ids(s, 'Price Index')).toEqual(['us-cpi', 'uk-cpi']);
    expect(ids(s, '100%')).toEqual([]);
    expect(ids(s, '_')).toEqual([]);
    expect(ids(s, '   ')).toHaveLength(11);
  });

  it('applies the same rules to a single row in JavaScript (live rows)', () => {
    const us = { name: 'Consumer Price Index (YoY)', countryCode: 'US' };
    expect(matchesSearch(us, 'US CPI')).toBe(true);
    expect(matchesSearch({ ...us, countryCode: 'UK' }, 'US CPI')).toBe(false);
    expect(
      matchesSearch({ name: 'CFTC Gold NC Net Positions', countryCode: 'US' }, 'nonfarm'),
    ).toBe(false);
    expect(parseSearch('US')).toEqual({ country: null, groups: [['US']] });
  });
});
