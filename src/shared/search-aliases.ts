/**
 * What a trader types in the calendar filter or the news search, read the way they mean it:
 * "CPI" is the Consumer Price Index, "NFP" is Nonfarm Payrolls, "Fed" is anything the Fed
 * does, "US CPI" is the US one only. One parser for both: the store turns a parsed query
 * into SQL (calendar) or an FTS5 query (news), the renderer filters live rows with the same
 * rules. Every word must match (in any order); an alias matches itself or any of its phrases.
 */

/** Abbreviation (one or two words) → the phrases that mean it in names and stories. */
const ALIASES: Record<string, string[]> = {
  CPI: ['Consumer Price', 'Consumer Prices'],
  INFLATION: ['CPI', 'Consumer Price', 'HICP', 'PCE'],
  HICP: ['Harmonized Index of Consumer Prices'],
  PPI: ['Producer Price'],
  PCE: ['Personal Consumption Expenditures'],
  NFP: ['Nonfarm Payrolls', 'Non-Farm Payrolls'],
  PAYROLLS: ['Nonfarm Payrolls', 'Non-Farm Payrolls'],
  PMI: ['Purchasing Managers'],
  GDP: ['Gross Domestic Product'],
  FOMC: ['Fed Interest Rate Decision', 'Federal Open Market Committee'],
  FED: ['FOMC', 'Federal Reserve', 'Powell'],
  ECB: ['European Central Bank', 'Lagarde'],
  BOE: ['Bank of England'],
  BOJ: ['Bank of Japan'],
  BOC: ['Bank of Canada'],
  RBA: ['Reserve Bank of Australia'],
  RBNZ: ['Reserve Bank of New Zealand'],
  SNB: ['Swiss National Bank'],
  PBOC: ["People's Bank of China"],
  // "rate" alone still matches "Unemployment Rate": the word itself is always one choice.
  RATE: ['Interest Rate Decision', 'Refinancing', 'Loan Prime Rate'],
  RATES: ['Interest Rate Decision', 'Refinancing', 'Loan Prime Rate'],
  'RATE DECISION': ['Interest Rate Decision', 'Refinancing', 'Loan Prime Rate'],
  'INTEREST RATE': ['Interest Rate Decision', 'Refinancing', 'Loan Prime Rate'],
  SPEECH: ['Speaks', 'Testimony', 'Testifies'],
  SPEAKS: ['Speech', 'Testimony', 'Testifies'],
  JOBS: ['Nonfarm Payrolls', 'Employment', 'Jobless', 'Claimant'],
  CLAIMS: ['Jobless Claims', 'Claimant Count'],
  RETAIL: ['Retail Sales'],
};

/** Words that name a country: the service's code, its currency, its common names. */
const COUNTRY_WORDS: Record<string, string> = {
  US: 'US',
  USA: 'US',
  USD: 'US',
  AMERICA: 'US',
  EMU: 'EMU',
  EU: 'EMU',
  EZ: 'EMU',
  EUR: 'EMU',
  EUROZONE: 'EMU',
  DE: 'DE',
  GERMANY: 'DE',
  GERMAN: 'DE',
  UK: 'UK',
  GB: 'UK',
  GBP: 'UK',
  BRITAIN: 'UK',
  JP: 'JP',
  JPY: 'JP',
  JAPAN: 'JP',
  CN: 'CN',
  CNY: 'CN',
  CHINA: 'CN',
  CA: 'CA',
  CAD: 'CA',
  CANADA: 'CA',
  AU: 'AU',
  AUD: 'AU',
  AUSTRALIA: 'AU',
  NZ: 'NZ',
  NZD: 'NZ',
  CH: 'CH',
  CHF: 'CH',
  SWITZERLAND: 'CH',
};

/** One word of the query: what was typed, and every phrase that satisfies it. */
export interface SearchGroup {
  phrases: string[];
  /** True when the group came from an alias (its last word is then not a prefix). */
  alias: boolean;
}

export interface ParsedSearch {
  /** The release's country must be this code (from "US CPI", "Japan GDP"); null = any. */
  country: string | null;
  /** Every group must match; within a group, any phrase. */
  groups: SearchGroup[];
}

/**
 * Split a search text into a country and word groups. A country word counts only beside
 * other words ("US" alone still finds names containing "US"), and only where the text has
 * countries (`countries: false` for news); a one- or two-word alias stands for itself and
 * its phrases; any other word stands for itself.
 */
export function parseSearch(text: string, opts: { countries?: boolean } = {}): ParsedSearch | null {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  let country: string | null = null;
  const rest: string[] = [];
  for (const w of words) {
    const code = opts.countries === false ? undefined : COUNTRY_WORDS[w.toUpperCase()];
    if (code && country === null && words.length > 1) country = code;
    else rest.push(w);
  }
  const groups: SearchGroup[] = [];
  for (let i = 0; i < rest.length; i++) {
    const pair = i + 1 < rest.length ? `${rest[i]} ${rest[i + 1]}` : null;
    const pairAlias = pair ? ALIASES[pair.toUpperCase()] : undefined;
    if (pair && pairAlias) {
      groups.push({ phrases: [pair, ...pairAlias], alias: true });
      i++;
      continue;
    }
    const w = rest[i] as string;
    const alias = ALIASES[w.toUpperCase()];
    groups.push({ phrases: alias ? [w, ...alias] : [w], alias: Boolean(alias) });
  }
  return { country, groups };
}

/** The same rules in JavaScript, for rows pushed live (the store answers with SQL). */
export function matchesSearch(ed: { name: string; countryCode: string }, text: string): boolean {
  const q = parseSearch(text);
  if (!q) return true;
  if (q.country !== null && ed.countryCode !== q.country) return false;
  const name = ed.name.toLowerCase();
  return q.groups.every((g) => g.phrases.some((phrase) => name.includes(phrase.toLowerCase())));
}

/** A SQL condition on `name` and `country_code` with named parameters (LIKE, escaped). */
export function searchSql(text: string): { sql: string; params: Record<string, string> } | null {
  const q = parseSearch(text);
  if (!q) return null;
  const params: Record<string, string> = {};
  const where: string[] = [];
  if (q.country !== null) {
    params.search_country = q.country;
    where.push('country_code = @search_country');
  }
  q.groups.forEach((g, gi) => {
    const alts = g.phrases.map((phrase, pi) => {
      const key = `search_${gi}_${pi}`;
      params[key] = `%${phrase.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return `name LIKE @${key} ESCAPE '\\'`;
    });
    where.push(`(${alts.join(' OR ')})`);
  });
  return { sql: where.join(' AND '), params };
}
