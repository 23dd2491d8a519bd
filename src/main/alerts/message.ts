/** Alert text a trader can act on without opening the app. Pure. */
import type { AlertKind, EventDate, Post } from '../../shared/domain.js';
import {
  formatValue,
  previousFigures,
  releaseDecimals,
  surpriseOf,
  timeToken,
} from '../../shared/format.js';
import { formatTime } from './zone.js';

export interface AlertText {
  title: string;
  body: string;
}

type HourCycle = 'h12' | 'h23';

/** Every figure of a release with the release's own precision (52.0 beside 51.8, 3.00%). */
const v = (ed: EventDate, value: number | null) =>
  formatValue(value, ed.unit, ed.potency, releaseDecimals(ed));

/** `US Nonfarm Payrolls` */
export function titleOf(ed: Pick<EventDate, 'countryCode' | 'name'>): string {
  return `${ed.countryCode} ${ed.name}`;
}

/** `prev 229K`, or `prev 210K, revised from 229K` when the service revised it. */
function previousText(ed: EventDate): string | null {
  const { current, revisedFrom } = previousFigures(ed);
  if (current === null) return null;
  return revisedFrom !== null
    ? `prev ${v(ed, current)}, revised from ${v(ed, revisedFrom)}`
    : `prev ${v(ed, current)}`;
}

/** `275K vs 200K consensus (prev 229K) — beat` */
export function releaseBody(ed: EventDate): string {
  // A speech or an event without a figure still "prints": say it is on.
  if (ed.actual === null) return ed.isSpeech ? 'Speech under way' : 'Out now';
  let text = v(ed, ed.actual);
  if (ed.consensus !== null) text += ` vs ${v(ed, ed.consensus)} consensus`;
  const prev = previousText(ed);
  if (prev) text += ` (${prev})`;
  const surprise = surpriseOf(ed);
  if (surprise === 'beat') text += ' — beat';
  else if (surprise === 'miss') text += ' — miss';
  else if (surprise === 'inline') text += ' — in line';
  return text;
}

export function releaseText(ed: EventDate): AlertText {
  return {
    title: ed.isPreliminary ? `${titleOf(ed)} (prelim)` : titleOf(ed),
    body: releaseBody(ed),
  };
}

/** A printed figure was corrected: `US Nonfarm Payrolls corrected` / `275K, was 234K`. */
export function correctedText(ed: EventDate, was: number): AlertText {
  return { title: `${titleOf(ed)} corrected`, body: `${v(ed, ed.actual)}, was ${v(ed, was)}` };
}

/** A print over a figure a notification brought and the service never confirmed. */
export function replacedNote(ed: EventDate, was: number): string {
  return ` (replaces ${v(ed, was)}, which the service never confirmed)`;
}

/**
 * A print alerted from a notification the service does not hold: `US CPI: print withdrawn` /
 * `No print from the service yet; 999 came in a notification it never confirmed`.
 */
export function withdrawnText(ed: EventDate, was: number): AlertText {
  return {
    title: `${titleOf(ed)}: print withdrawn`,
    body: `No print from the service yet; ${v(ed, was)} came in a notification it never confirmed`,
  };
}

/** The previous period's figure was revised: `Previous now 210K (was 229K)`. */
export function revisedText(ed: EventDate, was: number | null): AlertText {
  const from = was ?? ed.previous;
  return {
    title: `${titleOf(ed)} revised`,
    body:
      from !== null && from !== ed.revised
        ? `Previous now ${v(ed, ed.revised)} (was ${v(ed, from)})`
        : `Previous now ${v(ed, ed.revised)}`,
  };
}

export function rescheduledText(ed: EventDate, from: string): AlertText {
  // Times as tokens: rendered in the zone and clock of whoever reads it, when they read it.
  return {
    title: `${titleOf(ed)} rescheduled`,
    body: `Moved to ${timeToken(ed.dateUtc, 'dt')} (was ${timeToken(from, 'dt')})`,
  };
}

export function addedText(ed: EventDate): AlertText {
  const when = timeToken(ed.dateUtc, 'dt');
  return {
    title: `${titleOf(ed)} added`,
    body: ed.isTentative ? `Scheduled for ${when} (tentative)` : `Scheduled for ${when}`,
  };
}

export function removedText(ed: EventDate | null, eventDateId: string): AlertText {
  if (!ed) return { title: 'Release removed', body: `Event date ${eventDateId} was removed` };
  return {
    title: `${titleOf(ed)} removed`,
    body: `Taken off the calendar (was due ${timeToken(ed.dateUtc, 'dt')})`,
  };
}

/** `US CPI m/m in 5 min` / `consensus 0.3%, prev 0.4%` */
export function reminderText(ed: EventDate, minutes: number): AlertText {
  const bits: string[] = [];
  if (ed.consensus !== null) bits.push(`consensus ${v(ed, ed.consensus)}`);
  const prev = previousText(ed);
  if (prev) bits.push(prev);
  return {
    title: `${titleOf(ed)} in ${minutes} min`,
    body: bits.length > 0 ? bits.join(', ') : 'No consensus yet',
  };
}

export function newsText(post: Post): AlertText {
  return { title: post.title, body: post.summary ?? '' };
}

/** What a grouped notification needs to know of each alert it carries. */
export interface GroupItem {
  kind: AlertKind;
  title: string;
  body: string;
  /** For releases and reminders: where and when it was due. */
  countryCode?: string;
  dateUtc?: string;
}

const MAX_LINES = 8;

/**
 * Several alerts as one notification: `US: 3 releases at 13:30` when they share a country
 * and a time, `3 releases` otherwise, and one line per alert (the first eight).
 */
export function groupText(items: GroupItem[], zone: string, hourCycle: HourCycle): AlertText {
  const n = items.length;
  const kinds = new Set(items.map((i) => i.kind));
  const only = kinds.size === 1 ? items[0]?.kind : undefined;
  let title = `${n} alerts`;
  if (only === 'released') {
    const countries = new Set(items.map((i) => i.countryCode));
    const times = new Set(items.map((i) => i.dateUtc));
    const [country] = countries;
    const [time] = times;
    title =
      countries.size === 1 && times.size === 1 && country && time
        ? `${country}: ${n} releases at ${formatTime(time, zone, hourCycle)}`
        : `${n} releases`;
  } else if (only === 'news') title = `${n} news alerts`;
  else if (only === 'reminder') title = `${n} releases coming up`;
  const lines = items.slice(0, MAX_LINES).map((i) => (i.body ? `${i.title}: ${i.body}` : i.title));
  if (n > MAX_LINES) lines.push(`…and ${n - MAX_LINES} more`);
  return { title, body: lines.join('\n') };
}
