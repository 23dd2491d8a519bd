import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { matchesSearch, parseSearch } from '../../../src/shared/search-aliases.js';
import type { Post } from '../../../src/shared/domain.js';
import { ed } from './fixtures.js';
import { postFixture } from '../../fixtures/domain.js';

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
    ['us-waller', 'US', 'USD', "Fed's Waller speech"],
    ['us-balance', 'US', 'USD', "Fed's Balance Sheet"],
    ['us-powell', 'US', 'USD', 'Fed Chair Powell Speech'],
    ['us-unemp', 'US', 'USD', 'Unemployment Rate'],
    ['ch-unemp', 'CH', 'CHF', 'Unemployment Rate s.a.'],
    ['uk-boe', 'UK', 'GBP', 'BoE Interest Rate Decision'],
    ['us-adp', 'US', 'USD', 'ADP Nonfarm Employment Change'],
    ['us-claims', 'US', 'USD', 'Initial Jobless Claims'],
  ] as const;
  rows.forEach(([id, countryCode, currencyCode, name], i) =>
    s.upsertEventDate(
      ed(id, {
        countryCode,
        currencyCode,
        name,
        dateUtc: `2026-11-${String(1 + i).padStart(2, '0')}T${String(i).padStart(2, '0')}:30:00Z`,
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
    expect(ids(s, 'US Nonfarm')).toEqual(['us-nfp', 'us-adp']);
  });

  it('keeps literal substrings, and treats LIKE wildcards as text', () => {
    const s = seeded();
    expect(ids(s, 'Lagarde')).toEqual(['emu-lagarde']);
    expect(ids(s, 'Price Index')).toEqual(['us-cpi', 'uk-cpi']);
    expect(ids(s, '100%')).toEqual([]);
    expect(ids(s, '_')).toEqual([]);
    expect(ids(s, '   ')).toHaveLength(19);
  });

  it('applies the same rules to a single row in JavaScript (live rows)', () => {
    const us = { name: 'Consumer Price Index (YoY)', countryCode: 'US' };
    expect(matchesSearch(us, 'US CPI')).toBe(true);
    expect(matchesSearch({ ...us, countryCode: 'UK' }, 'US CPI')).toBe(false);
    expect(
      matchesSearch({ name: 'CFTC Gold NC Net Positions', countryCode: 'US' }, 'nonfarm'),
    ).toBe(false);
    expect(parseSearch('US')).toEqual({
      country: null,
      groups: [{ phrases: ['US'], alias: false }],
    });
  });
});

/** What traders type, and the rows they expect (in calendar order). */
const TRADER_QUERIES: [query: string, expected: string[]][] = [
  ['Fed', ['us-fomc', 'us-waller', 'us-balance', 'us-powell']],
  ['fed speech', ['us-waller', 'us-powell']],
  ['Fed balance sheet', ['us-balance']],
  ['Unemployment Rate', ['us-unemp', 'ch-unemp']],
  ['unemployment rate', ['us-unemp', 'ch-unemp']],
  ['unemployment', ['us-unemp', 'ch-unemp']],
  ['US unemployment rate', ['us-unemp']],
  ['NFP', ['us-nfp']],
  ['payrolls', ['us-nfp']],
  ['CPI', ['us-cpi', 'uk-cpi', 'jp-cpi']],
  ['PMI', ['us-ism', 'de-pmi']],
  ['ECB', ['emu-ecb', 'emu-lagarde']],
  ['rate decision', ['us-fomc', 'emu-ecb', 'uk-boe']],
  ['jobless claims', ['us-claims']],
  ['Powell', ['us-powell']],
];

describe('a table of what traders type in the calendar filter', () => {
  it.each(TRADER_QUERIES)('%s', (query, expected) => {
    const s = seeded();
    expect(ids(s, query)).toEqual(expected);
    // Rows pushed live are filtered in JavaScript by the same rules.
    const all = s.listEventDates(week);
    expect(all.filter((r) => matchesSearch(r, query)).map((r) => r.id)).toEqual(expected);
  });
});

describe('news search understands the same shortcuts', () => {
  const story = (id: string, title: string, summary: string | null = null): Post =>
    postFixture({ id, title, summary, contentHtml: `<p>${title}</p>` });
  const news = () => {
    const s = openStore({ path: join(mkdtempSync(join(tmpdir(), 'mb-news-alias-')), 'c.db') });
    open.push(s);
    s.upsertPost(story('nfp', 'Nonfarm Payrolls preview: hiring seen slowing'), {});
    s.upsertPost(story('cpi', 'AU Monthly Consumer Price Index rises to 3.8%'), {});
    s.upsertPost(story('fed', "Fed's Waller: no hurry to cut"), {});
    s.upsertPost(story('boe', 'Bank of England holds the Bank Rate'), {});
    s.upsertPost(story('gold', 'Gold steadies as yields ease'), {});
    return s;
  };
  const found = (s: Store, q: string) =>
    s
      .searchPosts({ query: q })
      .map((h) => h.id)
      .sort();

  it.each([
    ['NFP', ['nfp']],
    ['payrolls', ['nfp']],
    ['CPI', ['cpi']],
    ['consumer price', ['cpi']],
    ['Fed', ['fed']],
    ['BoE', ['boe']],
    ['nonfarm prev', ['nfp']],
    ['gold', ['gold']],
  ])('%s', (query, expected) => {
    expect(found(news(), query)).toEqual(expected);
  });

  it('marks the alias phrase in the snippet', () => {
    const [hit] = news().searchPosts({ query: 'NFP' });
    expect(hit?.snippetHtml).toContain('<mark>Nonfarm</mark> <mark>Payrolls</mark>');
  });
});
