/**
 * What a trader types in the calendar filter, read the way they mean it: "CPI" is the
 * Consumer Price Index, "NFP" is Nonfarm Payrolls, "US CPI" is the US one only. Pure: the
 * store turns a parsed query into SQL, the renderer filters live rows with the same rules.
 */

/** Abbreviation → the phrases that appear in release names (any one matches). */
const ALIASES: Record<string, string[]> = {
  CPI: ['CPI', 'Consumer Price', 'Consumer Prices'],
  HICP: ['Harmonized Index of Consumer Prices', 'HICP'],
  PPI: ['PPI', 'Producer Price'],
  PCE: ['PCE'],
  NFP: ['Nonfarm Payrolls', 'Non-Farm Payrolls', 'Nonfarm Employment'],
  PAYROLLS: ['Nonfarm Payrolls', 'Non-Farm Payrolls'],
  PMI: ['PMI', 'Purchasing Managers'],
  GDP: ['Gross Domestic Product', 'GDP'],
  FOMC: ['Fed Interest Rate Decision', 'FOMC', 'Federal Open Market Committee'],
  FED: ['Fed '],
  ECB: ['ECB', 'European Central Bank'],
  BOE: ['BoE', 'Bank of England'],
  BOJ: ['BoJ', 'Bank of Japan'],
  BOC: ['BoC', 'Bank of Canada'],
  RBA: ['RBA', 'Reserve Bank of Australia'],
  RBNZ: ['RBNZ', 'Reserve Bank of New Zealand'],
  SNB: ['SNB', 'Swiss National Bank'],
  PBOC: ['PBoC', "People's Bank of China"],
  RATE: ['Interest Rate Decision', 'Refinancing', 'Loan Prime Rate'],
  RATES: ['Interest Rate Decision', 'Refinancing', 'Loan Prime Rate'],
  JOBS: ['Nonfarm Payrolls', 'Employment', 'Jobless', 'Claimant'],
  CLAIMS: ['Jobless Claims', 'Claimant Count'],
  RETAIL: ['Retail Sales'],
  ISM: ['ISM'],
  ZEW: ['ZEW'],
  IFO: ['IFO'],
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

export interface ParsedSearch {
  /** The release's country must be this code (from "US CPI", "Japan GDP"); null = any. */
  country: string | null;
  /** The name must contain one phrase of every group (groups AND, phrases OR). */
  groups: string[][];
}

/**
 * Split a filter text into a country and phrase groups. A country word counts only beside
 * other words ("US" alone still finds names containing "US"); an alias stands for its
 * phrases; other words stay together as one literal phrase, as before.
 */
export function parseSearch(text: string): ParsedSearch | null {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  let country: string | null = null;
  const rest: string[] = [];
  for (const w of words) {
    const code = COUNTRY_WORDS[w.toUpperCase()];
    if (code && country === null && words.length > 1) country = code;
    else rest.push(w);
  }
  const groups: string[][] = [];
  let literal: string[] = [];
  const flush = () => {
    if (literal.length) groups.push([literal.join(' ')]);
    literal = [];
  };
  for (const w of rest) {
    const alias = ALIASES[w.toUpperCase()];
    if (alias) {
      flush();
      groups.push(alias);
    } else literal.push(w);
  }
  flush();
  return { country, groups };
}

/** The same rules in JavaScript, for rows pushed live (the store answers with SQL). */
export function matchesSearch(ed: { name: string; countryCode: string }, text: string): boolean {
  const q = parseSearch(text);
  if (!q) return true;
  if (q.country !== null && ed.countryCode !== q.country) return false;
  const name = ed.name.toLowerCase();
  return q.groups.every((g) => g.some((phrase) => name.includes(phrase.toLowerCase())));
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
    const alts = g.map((phrase, pi) => {
      const key = `search_${gi}_${pi}`;
      params[key] = `%${phrase.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return `name LIKE @${key} ESCAPE '\\'`;
    });
    where.push(`(${alts.join(' OR ')})`);
  });
  return { sql: where.join(' AND '), params };
}
