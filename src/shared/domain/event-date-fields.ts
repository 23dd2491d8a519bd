/**
 * Every field of an EventDate (docs/service-api.md) and what each part of Macrobell does
 * with it, in one list: the app's cache compares all of them, the sync reports a change to
 * a tracked one, the simulator's control API lets a test patch an editable one. A field
 * added to EventDate and not here fails to compile.
 */
import type { EventDate } from './calendar.js';

interface FieldUse {
  /** A change to it is reported to the trader (diff.ts: eventDateUpdated). */
  tracked: boolean;
  /** The simulator's control API may patch it (world.ts). */
  editable: boolean;
}

const both: FieldUse = { tracked: true, editable: true };
const editableOnly: FieldUse = { tracked: false, editable: true };
const neither: FieldUse = { tracked: false, editable: false };

/** `decimals` is the app's own addition on reads, not a field of the record. */
type WireKey = Exclude<keyof EventDate, 'decimals'>;

const FIELDS: Record<WireKey, FieldUse> = {
  id: neither,
  eventId: neither,
  dateUtc: both,
  periodDateUtc: editableOnly,
  periodType: editableOnly,
  actual: both,
  revised: both,
  consensus: both,
  ratioDeviation: both,
  previous: both,
  isBetterThanExpected: both,
  name: both,
  countryCode: neither,
  currencyCode: neither,
  unit: both,
  potency: both,
  volatility: both,
  isAllDay: both,
  isTentative: both,
  isPreliminary: editableOnly,
  isReport: neither,
  isSpeech: neither,
  lastUpdated: neither,
};

const keysWhere = (use?: keyof FieldUse): WireKey[] =>
  (Object.keys(FIELDS) as WireKey[]).filter((k) => !use || FIELDS[k][use]);

export const EVENT_DATE_KEYS: readonly WireKey[] = keysWhere();
export const TRACKED_EVENT_DATE_KEYS: readonly WireKey[] = keysWhere('tracked');
export const EDITABLE_EVENT_DATE_KEYS: readonly WireKey[] = keysWhere('editable');
