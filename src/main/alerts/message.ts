/** Alert text a trader can act on without opening the app. Pure. */
import { DateTime } from 'luxon';
import type { EventDate, Post } from '../../shared/domain.js';
import { formatValue, surpriseOf } from '../../shared/format.js';

export interface AlertText {
  title: string;
  body: string;
}

const v = (ed: EventDate, value: number | null) => formatValue(value, ed.unit, ed.potency);

export function titleOf(ed: EventDate): string {
  return `${ed.countryCode} ${ed.name}`;
}

/** `275K vs 200K consensus (prev 229K, revised from 210K) — beat` */
export function releaseBody(ed: EventDate, previousRevised?: number | null): string {
  const parts = [v(ed, ed.actual)];
  if (ed.consensus !== null) parts.push(`vs ${v(ed, ed.consensus)} consensus`);
  const prev =
    ed.revised !== null && ed.revised !== ed.previous
      ? `prev ${v(ed, ed.revised)}, revised from ${v(ed, ed.previous)}`
      : ed.previous !== null
        ? `prev ${v(ed, ed.previous)}`
        : null;
  let text = parts.join(' ');
  if (prev) text += ` (${prev})`;
  void previousRevised;
  const surprise = surpriseOf(ed);
  if (surprise === 'beat') text += ' — beat';
  else if (surprise === 'miss') text += ' — miss';
  else if (surprise === 'inline') text += ' — in line';
  return text;
}

export function releaseText(ed: EventDate): AlertText {
  return { title: titleOf(ed), body: releaseBody(ed) };
}

export function revisedText(ed: EventDate, was: number | null): AlertText {
  const from = was ?? ed.previous;
  return {
    title: `${titleOf(ed)} revised`,
    body: `Previous now ${v(ed, ed.revised)} (was ${v(ed, from)})`,
  };
}

export function formatWhen(iso: string, zone: string, hourCycle: 'h12' | 'h23'): string {
  const dt = DateTime.fromISO(iso, { zone: 'utc' }).setZone(zone === 'system' ? 'local' : zone);
  return dt.toFormat(hourCycle === 'h12' ? 'ccc d LLL h:mm a' : 'ccc d LLL HH:mm');
}

export function rescheduledText(
  ed: EventDate,
  from: string,
  zone: string,
  hourCycle: 'h12' | 'h23',
): AlertText {
  return {
    title: `${titleOf(ed)} rescheduled`,
    body: `Moved to ${formatWhen(ed.dateUtc, zone, hourCycle)} (was ${formatWhen(from, zone, hourCycle)})`,
  };
}

export function addedText(ed: EventDate, zone: string, hourCycle: 'h12' | 'h23'): AlertText {
  return {
    title: `${titleOf(ed)} added`,
    body: `Scheduled for ${formatWhen(ed.dateUtc, zone, hourCycle)}`,
  };
}

export function removedText(ed: EventDate | null, id: string): AlertText {
  return {
    title: ed ? `${titleOf(ed)} removed` : 'Release removed',
    body: ed ? 'Taken off the calendar' : `Event date ${id} was removed`,
  };
}

export function reminderText(ed: EventDate, minutes: number): AlertText {
  const bits = [] as string[];
  if (ed.consensus !== null) bits.push(`consensus ${v(ed, ed.consensus)}`);
  if (ed.previous !== null) bits.push(`prev ${v(ed, ed.previous)}`);
  return {
    title: `${titleOf(ed)} in ${minutes} min`,
    body: bits.length ? bits.join(', ') : 'Coming up',
  };
}

export function newsText(post: Post): AlertText {
  return { title: post.title, body: post.summary ?? '' };
}
