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
  replacedNote,
  rescheduledText,
  revisedText,
  withdrawnText,
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
  /** A print: when it happened (the delay is measured from it) and whether it is late. */
  print?: { at: number; late: boolean };
  /**
   * The dedup key of the alert this one replaces in place: a print alerted from a figure the
   * service never confirmed. `onlyReplaces`: nothing to say when that alert does not exist.
   */
  replaces?: string;
  onlyReplaces?: boolean;
}

export interface DecideContext {
  rules: AlertRules;
  now: number;
  /** A backfilled revision or correction older than this is history, not news. */
  staleMs: number;
  /**
   * Prints before this (unix ms) happened before the app watched this calendar: history,
   * not news (a first start must not alert a week of prints). Null: no such bound.
   */
  coveredSince?: number | null;
}

/** A print found later than this after it happened is history, even when it is new to us. */
export const MAX_CATCH_UP_MS = 12 * 3_600_000;

/**
 * When a release printed: its scheduled time, or the service's stamp when that is later
 * (a release that printed late). `lastUpdated` is whole seconds, so it only wins when it
 * is clearly after the schedule.
 */
export function printTime(ed: EventDate): number {
  const scheduled = Date.parse(ed.dateUtc);
  const stamped = ed.lastUpdated * 1000;
  if (!Number.isFinite(scheduled)) return stamped;
  return stamped - scheduled >= 1000 ? stamped : scheduled;
}

/**
 * The one decision for every path (webhook, relay, safety net, minute re-read, backfill
 * after an outage or a wake): is this print news? Null when it is history; otherwise
 * whether it is late. Whether it was already alerted is the store's dedup key.
 */
export function newPrint(ed: EventDate, ctx: DecideContext): { at: number; late: boolean } | null {
  const at = printTime(ed);
  if (ctx.coveredSince != null && at < ctx.coveredSince) return null;
  const age = ctx.now - at;
  if (age > MAX_CATCH_UP_MS) return null;
  return { at, late: age >= ctx.rules.latePrintMinutes * 60_000 };
}

export const dedupKeys = {
  // The value is part of the fact: after a forged print is undone, the real one is news.
  released: (eventDateId: string, actual: number | null) => `released:${eventDateId}:${actual}`,
  revised: (eventDateId: string, revised: number | null) => `revised:${eventDateId}:${revised}`,
  corrected: (eventDateId: string, actual: number | null) => `corrected:${eventDateId}:${actual}`,
  withdrawn: (eventDateId: string, was: number) => `withdrawn:${eventDateId}:${was}`,
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

type Change<K extends DomainChange['kind']> = Extract<DomainChange, { kind: K }>;

function released(change: Change<'released'>, ctx: DecideContext): AlertDecision | null {
  const ed = change.eventDate;
  const print = matchesEventDate(ed, ctx.rules, 'released') ? newPrint(ed, ctx) : null;
  if (!print) return null;
  const plain = releaseText(ed);
  // Over an alert raised by a figure the service never confirmed: that figure is named.
  const text =
    change.replaces === undefined
      ? plain
      : { ...plain, body: `${plain.body}${replacedNote(ed, change.replaces)}` };
  // A revision published with the print is told in the print's one alert, when asked for.
  const title = revisedWithPrint(ed, ctx) ? `${text.title} · previous revised` : text.title;
  return {
    ...text,
    // Named as late everywhere it shows (history, tray, notification): no one mistakes it for news of now.
    title: print.late ? `Late print — ${title}` : title,
    dedupKey: dedupKeys.released(ed.id, ed.actual),
    kind: 'released',
    target: eventDateTarget(ed),
    ...releaseMeta(ed),
    print,
    // One alert, the real number: over the alert a figure the service never held raised.
    ...(change.replaces === undefined
      ? {}
      : { replaces: dedupKeys.released(ed.id, change.replaces) }),
  };
}

/** The print revised its previous figure and the rules ask for revisions. */
function revisedWithPrint(ed: EventDate, ctx: DecideContext): boolean {
  return (
    ed.revised !== null && ed.revised !== ed.previous && matchesEventDate(ed, ctx.rules, 'revised')
  );
}

function revised(change: Change<'revised'>, ctx: DecideContext): AlertDecision | null {
  const ed = change.eventDate;
  if (!matchesEventDate(ed, ctx.rules, 'revised')) return null;
  if (change.withPrint) {
    // The print's own alert names it (one notification, not two); alone only when the
    // print does not alert by the rules, and only while the print is news.
    if (matchesEventDate(ed, ctx.rules, 'released') || !newPrint(ed, ctx)) return null;
  } else if (staleBackfill(change, ed.dateUtc, ctx)) return null;
  return {
    ...revisedText(ed, change.previousRevised),
    dedupKey: dedupKeys.revised(ed.id, ed.revised),
    kind: 'revised',
    target: eventDateTarget(ed),
    ...releaseMeta(ed),
  };
}

/** A fixed figure: its own switch (on by default), apart from revisions of the previous. */
function corrected(change: Change<'corrected'>, ctx: DecideContext): AlertDecision | null {
  const ed = change.eventDate;
  if (change.unconfirmed) return withdrawn(change);
  if (!matchesEventDate(ed, ctx.rules, 'corrected') || staleBackfill(change, ed.dateUtc, ctx))
    return null;
  return {
    ...correctedText(ed, change.previousActual),
    dedupKey: dedupKeys.corrected(ed.id, ed.actual),
    kind: 'corrected',
    target: eventDateTarget(ed),
    ...releaseMeta(ed),
  };
}

/**
 * The service holds no print where a notification brought one: the alert that figure raised
 * is withdrawn in place (never "corrected": the service never held it); no alert otherwise.
 */
function withdrawn(change: Change<'corrected'>): AlertDecision {
  const ed = change.eventDate;
  return {
    ...withdrawnText(ed, change.previousActual),
    dedupKey: dedupKeys.withdrawn(ed.id, change.previousActual),
    kind: 'withdrawn',
    target: eventDateTarget(ed),
    ...releaseMeta(ed),
    replaces: dedupKeys.released(ed.id, change.previousActual),
    onlyReplaces: true,
  };
}

function rescheduled(change: Change<'rescheduled'>, ctx: DecideContext): AlertDecision | null {
  const ed = change.eventDate;
  if (!matchesEventDate(ed, ctx.rules, 'rescheduled')) return null;
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

function added(change: Change<'eventDateAdded'>, ctx: DecideContext): AlertDecision | null {
  const ed = change.eventDate;
  // A backfill "adds" the whole window on first start: that is loading, not news. One
  // already printed comes with its own `released` change: the print is the news.
  if (change.source === 'backfill' || ed.actual !== null) return null;
  if (!matchesEventDate(ed, ctx.rules, 'added')) return null;
  return {
    ...addedText(ed),
    dedupKey: dedupKeys.added(ed.id),
    kind: 'added',
    target: eventDateTarget(ed),
    ...releaseMeta(ed),
  };
}

function removed(change: Change<'eventDateRemoved'>, ctx: DecideContext): AlertDecision | null {
  const ed = change.eventDate;
  if (!ed || !matchesEventDate(ed, ctx.rules, 'removed')) return null;
  return {
    ...removedText(ed, change.eventDateId),
    dedupKey: dedupKeys.removed(change.eventDateId),
    kind: 'removed',
    // The occurrence is gone; its event (and its other dates) remain.
    target: { type: 'alerts' },
    ...releaseMeta(ed),
  };
}

function published(change: Change<'postPublished'>, ctx: DecideContext): AlertDecision | null {
  const p = change.post;
  if (change.source === 'backfill' || !matchesPost(p, ctx.rules)) return null;
  return {
    ...newsText(p),
    dedupKey: dedupKeys.news(p.culture, p.id),
    kind: 'news',
    target: { type: 'post', postId: p.id, culture: p.culture },
  };
}

/** One decider per kind of change that can alert; the other kinds never do. */
const deciders: {
  [K in DomainChange['kind']]?: (change: Change<K>, ctx: DecideContext) => AlertDecision | null;
} = {
  released,
  revised,
  corrected,
  rescheduled,
  eventDateAdded: added,
  eventDateRemoved: removed,
  postPublished: published,
  // eventDateUpdated, eventAdded, postUpdated, postRemoved: no alert.
};

export function decideAlert(change: DomainChange, ctx: DecideContext): AlertDecision | null {
  const decide = deciders[change.kind] as
    ((c: DomainChange, ctx: DecideContext) => AlertDecision | null) | undefined;
  return decide ? decide(change, ctx) : null;
}
