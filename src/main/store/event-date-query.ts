/**
 * The calendar window's query: filters → one SQL text and its named parameters. Lists
 * travel as one JSON parameter (json_each), so each filter combination is one cached
 * statement whatever the number of values.
 */
import { volatilityRank } from '../../shared/format.js';
import { searchSql } from '../../shared/search-aliases.js';
import { EVENT_DATE_COLUMNS } from './event-date-row.js';
import { ms } from './statements.js';

export interface EventDateFilter {
  from: string;
  to: string;
  volatilities?: string[];
  /** Matches the country code or the currency code. */
  countries?: string[];
  categories?: string[];
  text?: string;
  limit?: number;
}

export interface BuiltQuery {
  sql: string;
  params: Record<string, unknown>;
}

export function eventDateWindowQuery(q: EventDateFilter): BuiltQuery {
  const where = ['date_ms >= @from', 'date_ms < @to'];
  const params: Record<string, unknown> = {
    from: ms(q.from),
    to: ms(q.to),
    limit: q.limit ?? 20000,
  };
  if (q.volatilities?.length) {
    params.ranks = JSON.stringify([...new Set(q.volatilities.map(volatilityRank))]);
    where.push('volatility_rank IN (SELECT value FROM json_each(@ranks))');
  }
  if (q.countries?.length) {
    params.countries = JSON.stringify(q.countries);
    where.push(
      '(country_code IN (SELECT value FROM json_each(@countries)) OR currency_code IN (SELECT value FROM json_each(@countries)))',
    );
  }
  if (q.categories?.length) {
    params.categories = JSON.stringify(q.categories);
    where.push(
      'event_id IN (SELECT id FROM events WHERE category_id IN (SELECT value FROM json_each(@categories)))',
    );
  }
  const search = searchSql(q.text ?? ''); // aliases (CPI, NFP…) and "US CPI"
  if (search) {
    where.push(search.sql);
    Object.assign(params, search.params);
  }
  // Answered from the window index alone (it covers every column but raw), in order; each
  // record is built from its columns (cheaper than a cache of parsed records: measured).
  return {
    sql: `SELECT ${EVENT_DATE_COLUMNS.sql} FROM event_dates WHERE ${where.join(' AND ')} ORDER BY date_ms, id LIMIT @limit`,
    params,
  };
}
