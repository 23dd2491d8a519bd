/** Whether a row pushed live belongs in the calendar under its filters (as the store would answer). */
import type { CalendarFilters, EventDate } from '../../../shared/domain.js';
import { matchesSearch } from '../../../shared/search-aliases.js';
import { volatilityRank } from '../../../shared/format.js';

/**
 * `null` when the row alone cannot tell (a category filter: rows carry no category), so
 * the caller asks the store again instead of guessing.
 */
export function matchesFilters(ed: EventDate, f: CalendarFilters): boolean | null {
  if (
    f.volatilities.length &&
    !f.volatilities.some((v) => volatilityRank(v) === volatilityRank(ed.volatility))
  )
    return false;
  if (
    f.countries.length &&
    !f.countries.includes(ed.countryCode) &&
    !f.countries.includes(ed.currencyCode)
  )
    return false;
  if (f.text.trim() && !matchesSearch(ed, f.text)) return false;
  return f.categories.length ? null : true;
}
