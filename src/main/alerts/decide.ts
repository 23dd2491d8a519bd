/**
 * From a change applied to the cache to the alert it deserves, if any. Pure: the engine
 * records the result. Dedup keys name the fact, not the message, so the same fact seen
 * from the relay, a poll or a backfill (or after a restart) is one alert.
 */
import type {
  AlertKind,
  AlertRules,
  AlertTarget,
  DomainChange,
  EventDate,
} from '../../shared/domain.js';
import {
  addedText,
  correctedText,
  newsText,
  releaseText,
  removedText,
  rescheduledText,
  revisedText,
  type AlertText,
} from './message.js';
import { matchesEventDate, matchesPost } from './rules.js';

export interface AlertDecision extends AlertText {
  dedupKey: string;
  kind: AlertKind;
  target: AlertTarget;
  /** Kept for grouping ("US: 3 releases at 13:30"). */
  countryCode?: string;
  dateUtc?: string;
  /** Kept for the in-app sound of its notification (the service's impact, as given). */
  volatility?: string;
}

export interface DecideContext {
  rules: AlertRules;
  now: number;
  /** A backfilled print older than this is history, not news. */
  staleMs: number;
}

export const dedupKeys = {
  released: (eventDateId: string) => `released:${eventDateId}`,
  revised: (eventDateId: string, revised: number | null) => `revised:${eventDateId}:${revised}`,
  corrected: (eventDateId: string, actual: number | null) => `corrected:${eventDateId}:${actual}`,
  rescheduled: (eventDateId: string, dateUtc: string) => `rescheduled:${eventDateId}:${dateUtc}`,
  added: (eventDateId: string) => `added:${eventDateId}`,
  removed: (eventDateId: string) => `removed:${eventDateId}`,
  reminder: (eventDateId: string, dateUtc: string) => `reminder:${eventDateId}:${dateUtc}`,
  news: (culture: string, postId: string) => `news:${culture}:${postId}`,
};

const eventDateTarget = (ed: EventDate): AlertTarget => ({
  type: 'eventDate',
  eventDateId: ed.id,
  eventId: ed.eventId,
});

const releaseMeta = (ed: EventDate) => ({
  countryCode: ed.countryCode,
  dateUtc: ed.dateUtc,
  volatility: ed.volatility,
});

/** True when a backfill found something that happened too long ago to be worth a ping. */
function staleBackfill(change: DomainChange, dateUtc: string, ctx: DecideContext): boolean {
  if (change.source !== 'backfill') return false;
  const at = Date.parse(dateUtc);
  return !Number.isFinite(at) || ctx.now - at > ctx.staleMs;
}

export function decideAlert(change: DomainChange, ctx: DecideContext): AlertDecision | null {
  const { rules } = ctx;
  switch (change.kind) {
    case 'released': {
      const ed = change.eventDate;
      if (!matchesEventDate(ed, rules, 'released') || staleBackfill(change, ed.dateUtc, ctx))
        return null;
      return {
        ...releaseText(ed),
        dedupKey: dedupKeys.released(ed.id),
        kind: 'released',
        target: eventDateTarget(ed),
        ...releaseMeta(ed),
      };
    }
    case 'revised': {
      const ed = change.eventDate;
      if (!matchesEventDate(ed, rules, 'revised') || staleBackfill(change, ed.dateUtc, ctx))
        return null;
      return {
        ...revisedText(ed, change.previousRevised),
        dedupKey: dedupKeys.revised(ed.id, ed.revised),
        kind: 'revised',
        target: eventDateTarget(ed),
        ...releaseMeta(ed),
      };
    }
    case 'corrected': {
      // Under the same rule as revisions: a fixed figure is news to whoever follows revisions.
      const ed = change.eventDate;
      if (!matchesEventDate(ed, rules, 'revised') || staleBackfill(change, ed.dateUtc, ctx))
        return null;
      return {
        ...correctedText(ed, change.previousActual),
        dedupKey: dedupKeys.corrected(ed.id, ed.actual),
        kind: 'corrected',
        target: eventDateTarget(ed),
        ...releaseMeta(ed),
      };
    }
    case 'rescheduled': {
      const ed = change.eventDate;
      if (!matchesEventDate(ed, rules, 'rescheduled')) return null;
      // Found by a backfill and already past: nothing left to plan for.
      if (change.source === 'backfill' && Date.parse(ed.dateUtc) < ctx.now) return null;
      return {
        ...rescheduledText(ed, change.fromDateUtc),
        dedupKey: dedupKeys.rescheduled(ed.id, ed.dateUtc),
        kind: 'rescheduled',
        target: eventDateTarget(ed),
        ...releaseMeta(ed),
      };
    }
    case 'eventDateAdded': {
      const ed = change.eventDate;
      // A backfill "adds" the whole window on first start: that is loading, not news.
      if (change.source === 'backfill' || !matchesEventDate(ed, rules, 'added')) return null;
      return {
        ...addedText(ed),
        dedupKey: dedupKeys.added(ed.id),
        kind: 'added',
        target: eventDateTarget(ed),
        ...releaseMeta(ed),
      };
    }
    case 'eventDateRemoved': {
      const ed = change.eventDate;
      if (!ed || !matchesEventDate(ed, rules, 'removed')) return null;
      return {
        ...removedText(ed, change.eventDateId),
        dedupKey: dedupKeys.removed(change.eventDateId),
        kind: 'removed',
        // The occurrence is gone; its event (and its other dates) remain.
        target: { type: 'alerts' },
        ...releaseMeta(ed),
      };
    }
    case 'postPublished': {
      const p = change.post;
      if (change.source === 'backfill' || !matchesPost(p, rules)) return null;
      return {
        ...newsText(p),
        dedupKey: dedupKeys.news(p.culture, p.id),
        kind: 'news',
        target: { type: 'post', postId: p.id, culture: p.culture },
      };
    }
    default:
      // eventDateUpdated, eventAdded, postUpdated, postRemoved: no alert.
      return null;
  }
}
