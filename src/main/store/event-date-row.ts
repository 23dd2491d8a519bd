/**
 * An event date as typed columns (migration 005). Reads build the record from the columns
 * in one pass over a `.raw()` row: no JSON to parse. The API's own JSON, with any field
 * this version does not know, stays in `raw` beside them.
 */
import type { EventDate } from '../../shared/domain.js';
import { EVENT_DATE_KEYS } from '../../shared/domain/event-date-fields.js';
import { volatilityRank } from '../../shared/format.js';
import { columnsOf, type EventDatesTable, type RowOf, type RowOfList } from './schema.js';

const RECORD_COLUMNS = [
  'id',
  'event_id',
  'date_utc',
  'period_date_utc',
  'period_type',
  'actual',
  'revised',
  'consensus',
  'ratio_deviation',
  'previous',
  'better',
  'name',
  'country_code',
  'currency_code',
  'unit',
  'potency',
  'volatility',
  'flags',
  'last_updated',
] as const;

/** The columns a record is built from, in SELECT order; `fromRow` reads them by name. */
export const EVENT_DATE_COLUMNS = columnsOf<EventDatesTable>()(...RECORD_COLUMNS);
const at = EVENT_DATE_COLUMNS.at;

/** A raw row of `EVENT_DATE_COLUMNS`. */
export type EventDateRow = RowOfList<typeof EVENT_DATE_COLUMNS>;

/** The same columns and the API's JSON after them (the apply path merges both). */
export const EVENT_DATE_WITH_RAW = columnsOf<EventDatesTable>()(...RECORD_COLUMNS, 'raw');
export type EventDateWithRawRow = RowOfList<typeof EVENT_DATE_WITH_RAW>;

// The five booleans in one integer: these bits are on disk (migration 005 wrote them).
const ALL_DAY = 1;
const TENTATIVE = 2;
const PRELIMINARY = 4;
const REPORT = 8;
const SPEECH = 16;

export function fromRow(r: EventDateRow | EventDateWithRawRow): EventDate {
  const flags = r[at.flags];
  const better = r[at.better];
  // Same key order as the API mapping (toEventDate), so serialised records compare equal.
  return {
    id: r[at.id],
    eventId: r[at.event_id],
    dateUtc: r[at.date_utc],
    periodDateUtc: r[at.period_date_utc],
    periodType: r[at.period_type],
    actual: r[at.actual],
    revised: r[at.revised],
    consensus: r[at.consensus],
    ratioDeviation: r[at.ratio_deviation],
    previous: r[at.previous],
    isBetterThanExpected: better === null ? null : better === 1,
    name: r[at.name],
    countryCode: r[at.country_code],
    currencyCode: r[at.currency_code],
    unit: r[at.unit],
    potency: r[at.potency],
    volatility: r[at.volatility],
    isAllDay: (flags & ALL_DAY) !== 0,
    isTentative: (flags & TENTATIVE) !== 0,
    isPreliminary: (flags & PRELIMINARY) !== 0,
    isReport: (flags & REPORT) !== 0,
    isSpeech: (flags & SPEECH) !== 0,
    lastUpdated: r[at.last_updated],
  };
}

/** Every written column, in `toParams` order. */
const WRITE_COLUMNS = [...RECORD_COLUMNS, 'date_ms', 'volatility_rank', 'raw'] as const;
/** The parameters of `UPSERT_EVENT_DATE`: position i has the type of `WRITE_COLUMNS[i]`. */
export type EventDateParams = RowOf<EventDatesTable, typeof WRITE_COLUMNS>;

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Insert, or replace every column of, an event date; parameters from `toParams`. */
export const UPSERT_EVENT_DATE = `INSERT INTO event_dates (${WRITE_COLUMNS.join(', ')})
  VALUES (${placeholders(WRITE_COLUMNS.length)})
  ON CONFLICT(id) DO UPDATE SET ${WRITE_COLUMNS.filter((c) => c !== 'id')
    .map((c) => `${c}=excluded.${c}`)
    .join(', ')}`;

/**
 * Columns of no index but the window's: an update that leaves the others alone sets only
 * these, so SQLite leaves the event and pending indexes untouched (fewer pages per commit).
 */
const KEY_COLUMNS = new Set<string>(['id', 'event_id', 'date_ms', 'volatility_rank', 'actual']);
const LIGHT = WRITE_COLUMNS.flatMap((c, i) => (KEY_COLUMNS.has(c) ? [] : [i]));
export const LIGHT_UPDATE_EVENT_DATE = `UPDATE event_dates SET ${LIGHT.map(
  (i) => `${WRITE_COLUMNS[i]}=?`,
).join(', ')} WHERE id = ?`;

/** True when `LIGHT_UPDATE_EVENT_DATE` may replace `prev` by `next` (same indexed keys). */
export const lightUpdate = (prev: EventDate, next: EventDate): boolean =>
  prev.id === next.id &&
  prev.eventId === next.eventId &&
  prev.actual === next.actual &&
  prev.volatility === next.volatility &&
  (prev.dateUtc === next.dateUtc || Date.parse(prev.dateUtc) === Date.parse(next.dateUtc));

/** `toParams` narrowed to the light update's parameters (id last). */
export const lightParams = (params: EventDateParams): unknown[] => [
  ...LIGHT.map((i) => params[i]),
  params[0],
];

/** Positional parameters for `UPSERT_EVENT_DATE`, in `WRITE_COLUMNS` order. */
export function toParams(ed: EventDate, dateMs: number, raw: string): EventDateParams {
  const flags =
    (ed.isAllDay ? ALL_DAY : 0) |
    (ed.isTentative ? TENTATIVE : 0) |
    (ed.isPreliminary ? PRELIMINARY : 0) |
    (ed.isReport ? REPORT : 0) |
    (ed.isSpeech ? SPEECH : 0);
  const better = ed.isBetterThanExpected;
  return [
    ed.id,
    ed.eventId,
    ed.dateUtc,
    ed.periodDateUtc ?? null,
    ed.periodType ?? null,
    ed.actual ?? null,
    ed.revised ?? null,
    ed.consensus ?? null,
    ed.ratioDeviation ?? null,
    ed.previous ?? null,
    better === null || better === undefined ? null : better ? 1 : 0,
    ed.name,
    ed.countryCode,
    ed.currencyCode,
    ed.unit ?? null,
    ed.potency ?? null,
    ed.volatility,
    flags,
    ed.lastUpdated,
    dateMs,
    volatilityRank(ed.volatility),
    raw,
  ];
}

/** Field-by-field equality of two records (instead of serialising both to compare). */
export function sameEventDate(a: EventDate, b: EventDate): boolean {
  for (const k of EVENT_DATE_KEYS) if (a[k] !== b[k]) return false;
  return true;
}
