/**
 * The countries and currencies a trader picks from: the calendar's chips and the alert rules
 * use these codes (the service's own: UK and EMU, not GB and EU), so a rule can only name
 * something a release actually carries.
 */
export const COUNTRY_CODES = [
  'US',
  'EMU',
  'DE',
  'FR',
  'UK',
  'JP',
  'CN',
  'CA',
  'AU',
  'NZ',
  'CH',
] as const;
export const CURRENCY_CODES = [
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CNY',
  'CAD',
  'AUD',
  'NZD',
  'CHF',
] as const;

type CountryCode = (typeof COUNTRY_CODES)[number];
type CurrencyCode = (typeof CURRENCY_CODES)[number];

export const isCountryCode = (code: string): code is CountryCode =>
  (COUNTRY_CODES as readonly string[]).includes(code);
export const isCurrencyCode = (code: string): code is CurrencyCode =>
  (CURRENCY_CODES as readonly string[]).includes(code);
