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
 * What forecasters expect next: the last print pulled part of the way back to the
 * indicator's typical level. Without the pull, years of history are a random walk that
 * takes a monthly change to 8 % or a confidence survey to 14 %. Policy rates (no spread)
 * move in steps of their own and are expected unchanged.
 */
function expectation(ind: Indicator, previous: number | null): number {
  const prior = previous ?? ind.level;
  return ind.spread === 0 ? prior : prior + 0.35 * (ind.level - prior);
}

/**
 * A policy rate's move at a meeting: mostly none, else 25 bp, towards the indicator's level
 * once it is a step or more away. A free walk took the demo's ECB rate from 2.15 % to 1.4 %
 * in two years of meetings; real central banks move in cycles around a neutral rate.
 */
function policyMove(ind: Indicator, rate: number, rng: Rng): number {
  if (rng() < 0.8) return 0;
  const towards = ind.level - rate;
  const side = rng() < 0.5 ? -1 : 1;
  return (Math.abs(towards) >= 0.25 ? Math.sign(towards) : side) * 0.25;
}

/** A print around `around` with a surprise; returns fields set on release. */
export function printValues(ind: Indicator, consensus: number | null, rng: Rng) {
  const base = consensus ?? ind.level;
  const noise = ind.spread === 0 ? policyMove(ind, base, rng) : (rng() - 0.5) * 2.4 * ind.spread;
  const actual = round(base + noise, ind.decimals);
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
 * Where an indicator's chain of values starts: 1 January of the year its history begins in.
 * A release's id and values then depend on the seed, the indicator and its time only, not
 * on when the demo started (except across the one day a year the anchor moves): a restarted
 * demo shows the same prints under the same ids, so the app's cache gains no second copy.
 */
const chainStart = (historyStart: number) =>
  Date.UTC(new Date(historyStart).getUTCFullYear(), 0, 1);

/** The draw a release's print comes from: the same at start-up and when autoplay prints it. */
export const printRng = (seed: number | string, key: string, dateMs: number): Rng =>
  createRng(`${seed}:${key}:${dateMs}:print`);

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

/** Build every event, its occurrences inside [now-7d, now+14d] and its history. */
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
    const model: EventModel = { event, indicator: ind, history: [] };
    // history: about a year of past prints on the real schedule, ending before the window
    const histCount = ind.frequency === 'weekly' ? 26 : ind.frequency === 'quarterly' ? 8 : 12;
    const span =
      (ind.frequency === 'weekly' ? 200 : ind.frequency === 'quarterly' ? 800 : 420) * DAY;
    const onDay = (day: number) => createRng(`${seed}:${ind.key}:day:${day}`)();
    // releases with values chain from a fixed start; speeches and holidays need no chain
    const first = hasValues(ind) ? chainStart(windowStart - span) : windowStart - span;
    const times = releaseTimes(ind, first, windowEnd, onDay);
    // the chain runs on planned prints; a pending release shows the last real one as previous
    let planned: number | null = ind.level;
    let lastPrinted: number | null = ind.level;
    for (const t of times) {
      const rng = createRng(`${seed}:${ind.key}:${t}`);
      const made = makeEventDate(
        event,
        ind,
        t,
        rng,
        planned,
        true,
        now,
        printRng(seed, ind.key, t),
      );
      // a decision on a day its bank has not published yet says so, as real calendars do
      const ed = isTentativeRelease(ind, t) ? { ...made, isTentative: true } : made;
      if (ed.actual !== null) ed.revised = revisionOf(seed, ind, t, ed.previous);
      if (ed.actual !== null) planned = ed.actual;
      if (t < windowStart) model.history.push(ed);
      else
        eventDates.push(t < now ? ed : pending(ed, hasValues(ind), lastPrinted, ind.decimals, now));
      if (t < now && ed.actual !== null) lastPrinted = ed.actual;
    }
    model.history = model.history.slice(-histCount);
    events.push(model);
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
  event: SimEvent,
  ind: Indicator | null,
  dateMs: number,
  rng: Rng,
  previous: number | null,
  released: boolean,
  /** Scenario time, for `lastUpdated` of records not yet released. */
  now?: number,
  /** Where the print is drawn from (see `printRng`). */
  print: Rng = rng,
): SimEventDate {
  const values = hasValues(ind);
  const i = ind as Indicator;
  // drawn even when nobody forecasts it, so the ids drawn next stay those of earlier demos
  const forecast = values
    ? round(expectation(i, previous) + (rng() - 0.5) * i.spread, i.decimals)
    : null;
  const consensus = ind?.noConsensus ? null : forecast;
  const printed = values && released ? printValues(i, consensus, print) : null;
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
