/**
 * Turns "the cache had X, now it has Y" into the domain changes a trader cares about.
 * Used for every source (webhook, relay, poll, backfill), so all of them alert alike.
 */
import type { ChangeSource, DomainChange, EventDate, Post } from '../../shared/domain.js';
import { TRACKED_EVENT_DATE_KEYS } from '../../shared/domain/event-date-fields.js';

export function diffEventDate(
  prev: EventDate | null,
  next: EventDate,
  source: ChangeSource,
): DomainChange[] {
  if (!prev) {
    // First seen already printed (created while webhooks were lost, or printed during an
    // outage or a sleep): the print is news all the same; the alert decision judges it.
    const added: DomainChange = { kind: 'eventDateAdded', eventDate: next, source };
    if (next.actual === null) return [added];
    const released: DomainChange = { kind: 'released', eventDate: next, source };
    // A print first seen with its revised previous: the revision is part of the news.
    return next.revised !== null && next.revised !== next.previous
      ? [
          added,
          released,
          { kind: 'revised', eventDate: next, previousRevised: null, withPrint: true, source },
        ]
      : [added, released];
  }
  const changes: DomainChange[] = [];
  if (prev.actual === null && next.actual !== null) {
    changes.push({ kind: 'released', eventDate: next, source });
  } else if (prev.actual !== null && next.actual !== null && prev.actual !== next.actual) {
    // A figure already printed and now different: the service corrected it.
    changes.push({ kind: 'corrected', eventDate: next, previousActual: prev.actual, source });
  }
  if (next.revised !== null && prev.revised !== next.revised) {
    const withPrint = changes.some((c) => c.kind === 'released');
    changes.push({
      kind: 'revised',
      eventDate: next,
      previousRevised: prev.revised,
      withPrint,
      source,
    });
  }
  if (prev.dateUtc !== next.dateUtc && Date.parse(prev.dateUtc) !== Date.parse(next.dateUtc)) {
    changes.push({ kind: 'rescheduled', eventDate: next, fromDateUtc: prev.dateUtc, source });
  }
  const covered = new Set<string>(['dateUtc']);
  if (changes.some((c) => c.kind === 'released' || c.kind === 'corrected')) {
    ['actual', 'ratioDeviation', 'isBetterThanExpected'].forEach((k) => covered.add(k));
  }
  if (changes.some((c) => c.kind === 'revised')) covered.add('revised');
  const other = TRACKED_EVENT_DATE_KEYS.filter((k) => !covered.has(k) && prev[k] !== next[k]);
  if (other.length > 0) {
    changes.push({ kind: 'eventDateUpdated', eventDate: next, keys: other, source });
  }
  return changes;
}

/** Apply a webhook's `changes` list to a cached event date (unknown keys kept in raw). */
export function mergeChanges(
  current: EventDate,
  currentRaw: Record<string, unknown>,
  changes: { key: string; value: unknown }[],
  lastUpdated: number,
): { eventDate: EventDate; raw: Record<string, unknown> } {
  const raw: Record<string, unknown> = { ...currentRaw };
  const eventDate: EventDate = { ...current };
  const fields = eventDate as unknown as Record<string, unknown>;
  for (const { key, value } of changes) {
    raw[key] = value;
    if (!(key in fields) || key === 'id' || key === 'eventId') continue;
    if (key === 'dateUtc') {
      if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) fields[key] = value;
      continue;
    }
    const expected = typeof fields[key];
    const nullable = ['actual', 'revised', 'consensus', 'previous', 'ratioDeviation'].includes(key);
    if (value === null && (nullable || key === 'isBetterThanExpected')) fields[key] = null;
    else if (typeof value === 'number' && (nullable || expected === 'number')) fields[key] = value;
    else if (
      typeof value === 'string' &&
      nullable &&
      value.trim() !== '' &&
      Number.isFinite(Number(value))
    )
      fields[key] = Number(value);
    else if (
      typeof value === 'boolean' &&
      (expected === 'boolean' || key === 'isBetterThanExpected')
    )
      fields[key] = value;
    else if (typeof value === 'string' && (expected === 'string' || fields[key] === null))
      fields[key] = value;
  }
  eventDate.lastUpdated = Math.max(current.lastUpdated, lastUpdated);
  raw.lastUpdated = eventDate.lastUpdated;
  return { eventDate, raw };
}

/** A post written over `previous`: published, updated where a reader sees it, or nothing. */
export function diffPost(previous: Post | null, post: Post, source: ChangeSource): DomainChange[] {
  if (!previous) return [{ kind: 'postPublished', post, source }];
  const same =
    previous.title === post.title &&
    previous.summary === post.summary &&
    previous.contentHtml === post.contentHtml &&
    previous.updateDate === post.updateDate;
  return same ? [] : [{ kind: 'postUpdated', post, source }];
}
