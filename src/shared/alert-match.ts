/** Which releases the alert rules cover: the alerts engine and the calendar's countdown agree. */
import type { AlertableChange, AlertRules, EventDate } from './domain.js';
import { atLeastVolatility } from './format.js';

/** Watched events always match (if that kind of change is on); others by impact and place. */
export function matchesEventDate(
  ed: Pick<EventDate, 'eventId' | 'volatility' | 'countryCode' | 'currencyCode'>,
  rules: AlertRules,
  kind: AlertableChange,
): boolean {
  if (!rules.changes[kind]) return false;
  if (rules.watchedEventIds.includes(ed.eventId)) return true;
  return (
    atLeastVolatility(ed.volatility, rules.minVolatility) &&
    (rules.countries.length === 0 || rules.countries.includes(ed.countryCode)) &&
    (rules.currencies.length === 0 || rules.currencies.includes(ed.currencyCode))
  );
}
