/** Generates events, their occurrences in the window and their history, from a seed. */
import type { CalendarEvent, EventDate } from '../../shared/domain.js';
import { CATEGORIES } from './categories.js';
import { INDICATORS, type Indicator } from './indicators.js';
import { createRng, round, uuid, type Rng } from '../rng.js';
import { periodOf, periodTypeOf } from './period.js';
import { isTentativeRelease, releaseTimes } from './schedule.js';

/**
 * The service's shapes are the app's domain shapes (src/shared/domain.ts mirrors the
 * documented wire format); the simulator narrows the fields it always fills.
 */
export type SimEvent = CalendarEvent & {
  description: string;
  categoryId: string;
  periodType: string;
  potency: string;
};

export type SimEventDate = EventDate & {
  periodDateUtc: string;
  periodType: string;
  potency: string;
};

const DAY = 86_400_000;

export interface EventModel {
  event: SimEvent;
  indicator: Indicator | null;
  /** Past prints beyond the window, oldest first: the /historical data. */
  history: SimEventDate[];
}

export function eventFromIndicator(ind: Indicator, rng: Rng): SimEvent {
  return {
    id: uuid(rng),
    name: ind.name,
    description: ind.description,
    countryCode: ind.country,
    currencyCode: ind.currency,
    categoryId: CATEGORIES[ind.category].id,
    periodType: periodTypeOf(ind),
    unit: ind.unit,
    potency: ind.potency,
    volatility: ind.volatility,
    isSpeech: Boolean(ind.speech),
    isReport: false,
  };
}

/** Whether an indicator's releases print a value (speeches and holidays do not). */
export function hasValues(ind: Indicator | null): boolean {
  return !!ind && !ind.speech && ind.category !== 'holidays';
}

/**
 * Where an indicator's figure runs at instant `t`: its typical level plus a slow, smooth
 * wander (`wander`), so a level (an unemployment rate, CPI y/y, CFTC positioning) keeps to
 * its neighbourhood month to month. A function of (seed, indicator, time) alone: no chain of
 * earlier prints, so every demo computes the same figure for a release whenever it starts.
 */
export function trendAt(seed: number | string, ind: Indicator, t: number): number {
  return ind.level + TREND_REACH * ind.spread * wander(`${seed}:${ind.key}:trend`, t, TREND_KNOTS);
}

/** How far a figure's trend strays from its typical level, in typical surprises. */
const TREND_REACH = 2;
/** A trend's knots: about a season apart, so it turns a few times a year. */
const TREND_KNOTS = 120 * DAY;
/** A policy rate's knots: a year apart, so it moves at most one 25 bp step per meeting. */
const RATE_KNOTS = 365 * DAY;
/** How many 25 bp steps a policy rate strays from its level at most. */
const RATE_REACH = 2;

/**
 * A smooth stateless series in [-1, 1]: knots drawn from `key` every `spacing` ms, joined by
 * cosine interpolation. Its slope is at most π/spacing per ms, which bounds how far two
 * nearby releases can differ.
 */
function wander(key: string, t: number, spacing: number): number {
  const k = Math.floor(t / spacing);
  const knot = (i: number) => createRng(`${key}:${i}`)() * 2 - 1;
  const w = (1 - Math.cos(Math.PI * ((t - k * spacing) / spacing))) / 2;
  return knot(k) * (1 - w) + knot(k + 1) * w;
}

/**
 * A policy rate at a decision at `t`: its level plus a whole number of 25 bp steps, the
 * nearest to a smooth series a year between knots. Two decisions a month or more apart
 * differ by at most one step (the series moves less than a step in 28 days), so the rate
 * holds at most meetings and moves 25 bp in cycles around a neutral level, as banks do.
 */
export function policyRateAt(seed: number | string, ind: Indicator, t: number): number {
  const steps = Math.round(RATE_REACH * wander(`${seed}:${ind.key}:rate`, t, RATE_KNOTS));
  return round(ind.level + 0.25 * steps, ind.decimals);
}

/**
 * What forecasters expect for the release at `t`: the figure's trend, or for a policy rate
 * (no spread) the rate unchanged from the last decision.
 */
function expectation(
  seed: number | string,
  ind: Indicator,
  t: number,
  previous: number | null,
): number {
  return ind.spread === 0 ? (previous ?? ind.level) : trendAt(seed, ind, t);
}

/** The draw a release's print comes from: the same at start-up and when autoplay prints it. */
const printRng = (seed: number | string, key: string, dateMs: number): Rng =>
  createRng(`${seed}:${key}:${dateMs}:print`);

/**
 * The print of `ind`'s release at `dateMs` (its scheduled time), given its consensus: a
 * surprise around the consensus (the trend when nobody forecasts it), a policy rate's
 * decision for a rate. The same at start-up and when autoplay prints it.
 */
export function printValues(
  seed: number | string,
  ind: Indicator,
  dateMs: number,
  consensus: number | null,
) {
  const actual =
    ind.spread === 0
      ? policyRateAt(seed, ind, dateMs)
      : round(
          (consensus ?? trendAt(seed, ind, dateMs)) +
            (printRng(seed, ind.key, dateMs)() - 0.5) * 2.4 * ind.spread,
          ind.decimals,
        );
  return { actual, ...surprise(ind, actual, consensus) };
}

export function surprise(ind: Indicator | null, actual: number, consensus: number | null) {
  if (consensus === null || !ind) return { ratioDeviation: null, isBetterThanExpected: null };
  const diff = actual - consensus;
  const scale = ind.spread > 0 ? ind.spread : 0.25;
  const ratioDeviation = round(Math.max(-7, Math.min(7, diff / scale)), 2);
  const isBetterThanExpected = diff === 0 ? null : ind.inverted ? diff < 0 : diff > 0;
  return { ratioDeviation, isBetterThanExpected };
}

/**
 * The revised figure of the previous period an indicator that `revises` publishes with its
 * print at `dateMs` (null for the others): drawn from its own seed, so the start-up calendar
 * and a print by autoplay revise alike, and never equal to the figure it revises.
 */
export function revisionOf(
  seed: number | string,
  ind: Indicator,
  dateMs: number,
  previous: number | null,
): number | null {
  if (!ind.revises || previous === null || ind.spread <= 0) return null;
  const rng = createRng(`${seed}:${ind.key}:${dateMs}:revision`);
  const step = 10 ** -ind.decimals;
  const delta = (rng() - 0.5) * ind.spread;
  const shift = Math.abs(delta) < step ? (delta < 0 ? -step : step) : delta;
  return round(previous + shift, ind.decimals);
}

/**
 * How far back a release's previous is found: the release before it, a week, a month or a
 * quarter and more earlier.
 */
function lookbackOf(ind: Indicator): number {
  if (!hasValues(ind)) return 0;
  return (ind.frequency === 'weekly' ? 15 : ind.frequency === 'monthly' ? 70 : 200) * DAY;
}

/**
 * Every release of `ind` in [from, to), printed (the caller marks the pending ones). Each
 * one's figures are stateless draws; its previous is the print of the release before it, so
 * the releases just before `from` are drawn as well, only for that.
 */
function drawReleases(
  seed: number | string,
  event: SimEvent,
  ind: Indicator,
  from: number,
  to: number,
  now: number,
): SimEventDate[] {
  const onDay = (day: number) => createRng(`${seed}:${ind.key}:day:${day}`)();
  const out: SimEventDate[] = [];
  let previous: number | null = null;
  for (const t of releaseTimes(ind, from - lookbackOf(ind), to, onDay)) {
    const made = makeEventDate(
      seed,
      event,
      ind,
      t,
      createRng(`${seed}:${ind.key}:${t}`),
      previous,
      true,
      now,
    );
    // a decision on a day its bank has not published yet says so, as real calendars do
    const ed = isTentativeRelease(ind, t) ? { ...made, isTentative: true } : made;
    if (ed.actual !== null) {
      ed.revised = revisionOf(seed, ind, t, ed.previous);
      previous = ed.actual;
    }
    if (t >= from) out.push(ed);
  }
  return out;
}

/**
 * An event whose history (about a year of past prints on the real schedule, ending before
 * the window) is drawn the first time something reads it: the first screen needs only the
 * window, and the draws are stateless, so a later draw gives the same prints.
 */
function withLazyHistory(
  event: SimEvent,
  indicator: Indicator,
  draw: () => SimEventDate[],
): EventModel {
  let history: SimEventDate[] | null = null;
  return {
    event,
    indicator,
    get history() {
      return (history ??= draw());
    },
    set history(value: SimEventDate[]) {
      history = value;
    },
  };
}

/** Build every event and its occurrences inside [now-7d, now+14d]; the history on demand. */
export function generateCalendar(
  seed: number | string,
  now: number,
): { events: EventModel[]; eventDates: SimEventDate[] } {
  const windowStart = now - 7 * DAY;
  const windowEnd = now + 14 * DAY;
  const events: EventModel[] = [];
  const eventDates: SimEventDate[] = [];
  for (const ind of INDICATORS) {
    const event = eventFromIndicator(ind, createRng(`${seed}:event:${ind.key}`));
    const histCount = ind.frequency === 'weekly' ? 26 : ind.frequency === 'quarterly' ? 8 : 12;
    const span =
      (ind.frequency === 'weekly' ? 200 : ind.frequency === 'quarterly' ? 800 : 420) * DAY;
    events.push(
      withLazyHistory(event, ind, () =>
        drawReleases(seed, event, ind, windowStart - span, windowStart, now).slice(-histCount),
      ),
    );
    const window = drawReleases(seed, event, ind, windowStart, windowEnd, now);
    // a pending release shows the last real print as previous
    let lastPrinted = window[0]?.previous ?? null;
    for (const ed of window) {
      const t = Date.parse(ed.dateUtc);
      if (t < now) {
        if (ed.actual !== null) lastPrinted = ed.actual;
        eventDates.push(ed);
      } else eventDates.push(pending(ed, hasValues(ind), lastPrinted, ind.decimals, now));
    }
  }
  eventDates.sort((a, b) => a.dateUtc.localeCompare(b.dateUtc));
  return { events, eventDates };
}

/** A release not yet printed: no actual, the last print as previous. */
function pending(
  ed: SimEventDate,
  values: boolean,
  previous: number | null,
  decimals: number,
  now: number,
): SimEventDate {
  return {
    ...ed,
    actual: null,
    revised: null,
    ratioDeviation: null,
    isBetterThanExpected: null,
    previous: values && previous !== null ? round(previous, decimals) : null,
    lastUpdated: Math.floor(Math.min(Date.parse(ed.dateUtc), now) / 1000) - 3600,
  };
}

/** An event the control API made up (no indicator): the month before its date. */
function monthBefore(dateMs: number, periodType: string) {
  const d = new Date(dateMs);
  const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
  return { periodDateUtc: new Date(first).toISOString().replace('.000Z', 'Z'), periodType };
}

export function makeEventDate(
  seed: number | string,
  event: SimEvent,
  ind: Indicator | null,
  dateMs: number,
  rng: Rng,
  previous: number | null,
  released: boolean,
  /** Scenario time, for `lastUpdated` of records not yet released. */
  now?: number,
): SimEventDate {
  const values = hasValues(ind);
  const i = ind as Indicator;
  // drawn even when nobody forecasts it, so the ids drawn next stay those of earlier demos
  const forecast = values
    ? round(expectation(seed, i, dateMs, previous) + (rng() - 0.5) * i.spread, i.decimals)
    : null;
  const consensus = ind?.noConsensus ? null : forecast;
  const printed = values && released ? printValues(seed, i, dateMs, consensus) : null;
  const period = ind ? periodOf(ind, dateMs) : monthBefore(dateMs, event.periodType);
  return {
    id: uuid(rng),
    eventId: event.id,
    dateUtc: new Date(dateMs).toISOString().replace('.000Z', 'Z'),
    periodDateUtc: period.periodDateUtc,
    periodType: period.periodType,
    actual: printed?.actual ?? null,
    revised: null,
    consensus,
    ratioDeviation: printed?.ratioDeviation ?? null,
    previous: values ? (previous === null ? null : round(previous, i.decimals)) : null,
    isBetterThanExpected: printed?.isBetterThanExpected ?? null,
    name: event.name,
    countryCode: event.countryCode,
    currencyCode: event.currencyCode,
    unit: event.unit,
    potency: event.potency,
    volatility: event.volatility,
    isAllDay: ind?.category === 'holidays',
    isTentative: false,
    isPreliminary: false,
    isReport: event.isReport,
    isSpeech: event.isSpeech,
    // released records were touched at release time; upcoming ones an hour before `now`
    lastUpdated: released
      ? Math.floor(dateMs / 1000) + 2
      : Math.floor(Math.min(dateMs, now ?? dateMs) / 1000) - 3600,
  };
}
