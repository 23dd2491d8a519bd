/** Generates events, their occurrences in the window and their history, from a seed. */
import type { CalendarEvent, EventDate } from '../../shared/domain.js';
import { CATEGORIES } from './categories.js';
import { INDICATORS, type Indicator } from './indicators.js';
import { createRng, round, uuid, type Rng } from '../rng.js';

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

export function periodTypeOf(ind: Indicator): string {
  return ind.frequency === 'weekly'
    ? 'WEEK'
    : ind.frequency === 'adhoc'
      ? 'DAY'
      : ind.frequency === 'quarterly'
        ? 'QUARTER'
        : ind.frequency === 'meeting'
          ? 'DAY'
          : 'MONTH';
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

function hasValues(ind: Indicator | null): boolean {
  return !!ind && !ind.speech && ind.category !== 'holidays';
}

/** A print around `around` with a surprise; returns fields set on release. */
export function printValues(ind: Indicator, consensus: number | null, rng: Rng) {
  const base = consensus ?? ind.level;
  const noise =
    ind.spread === 0
      ? rng() < 0.8
        ? 0
        : (rng() < 0.5 ? -1 : 1) * 0.25
      : (rng() - 0.5) * 2.4 * ind.spread;
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

function occurrenceTimes(
  ind: Indicator,
  rng: Rng,
  windowStart: number,
  windowEnd: number,
): number[] {
  const [hh, mm] = ind.time.split(':').map(Number) as [number, number];
  const atDay = (dayMs: number) => dayMs + hh * 3_600_000 + mm * 60_000;
  const startDay = Math.floor(windowStart / DAY) * DAY;
  const days = Math.ceil((windowEnd - startDay) / DAY);
  const out: number[] = [];
  if (ind.frequency === 'weekly') {
    for (let d = 0; d < days; d++) {
      const day = startDay + d * DAY;
      const iso = ((new Date(day).getUTCDay() + 6) % 7) + 1;
      if (iso === ind.weekday) out.push(atDay(day));
    }
    return out;
  }
  if (ind.frequency === 'adhoc') {
    // a speaker appears on about one weekday in three
    for (let d = 0; d < days; d++) {
      const day = startDay + d * DAY;
      const wd = new Date(day).getUTCDay();
      if (wd !== 0 && wd !== 6 && rng() < 0.3) out.push(atDay(day));
    }
    return out;
  }
  // monthly: a print in the past week and one ahead (flash/final, or the next month);
  // quarterly and meetings: sometimes one. Weekdays only, seeded.
  const pickDay = (fromDay: number, toDay: number): number | null => {
    for (let tries = 0; tries < 10; tries++) {
      const day = startDay + (fromDay + Math.floor(rng() * (toDay - fromDay))) * DAY;
      const wd = new Date(day).getUTCDay();
      if (wd !== 0 && wd !== 6) return day;
    }
    return null;
  };
  const todayIndex = Math.floor((windowStart + 7 * DAY - startDay) / DAY);
  const slots: [number, number, number][] =
    ind.frequency === 'monthly'
      ? [
          [0, todayIndex, 0.75],
          [todayIndex, days, 0.95],
        ]
      : [[0, days, ind.frequency === 'quarterly' ? 0.5 : 0.45]];
  for (const [from, to, chance] of slots) {
    if (rng() > chance) continue;
    const day = pickDay(from, to);
    if (day !== null) out.push(atDay(day));
  }
  return out;
}

/** Build every event, its occurrences inside [now-7d, now+14d] and its history. */
export function generateCalendar(
  seed: number | string,
  now: number,
): { events: EventModel[]; eventDates: SimEventDate[] } {
  const rng = createRng(`${seed}:calendar`);
  const windowStart = now - 7 * DAY;
  const windowEnd = now + 14 * DAY;
  const events: EventModel[] = [];
  const eventDates: SimEventDate[] = [];
  for (const ind of INDICATORS) {
    const event = eventFromIndicator(ind, rng);
    const model: EventModel = { event, indicator: ind, history: [] };
    const step =
      ind.frequency === 'weekly'
        ? 7 * DAY
        : ind.frequency === 'quarterly'
          ? 91 * DAY
          : ind.frequency === 'adhoc'
            ? 14 * DAY
            : ind.frequency === 'meeting'
              ? 45 * DAY
              : 30 * DAY;
    // history: a year or so of past prints, oldest first, ending before the window
    let level = ind.level;
    const histCount = ind.frequency === 'weekly' ? 26 : ind.frequency === 'quarterly' ? 8 : 12;
    for (let k = histCount; k >= 1; k--) {
      const date = Math.floor((windowStart - k * step) / 60_000) * 60_000;
      const ed = makeEventDate(event, ind, date, rng, level, true, now);
      if (ed.actual !== null) level = ed.actual;
      model.history.push(ed);
    }
    let previous = level;
    for (const t of occurrenceTimes(ind, rng, windowStart, windowEnd)) {
      const ed = makeEventDate(event, ind, t, rng, previous, t < now, now);
      if (ed.actual !== null) previous = ed.actual;
      eventDates.push(ed);
    }
    events.push(model);
  }
  eventDates.sort((a, b) => a.dateUtc.localeCompare(b.dateUtc));
  return { events, eventDates };
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
): SimEventDate {
  const values = hasValues(ind);
  const i = ind as Indicator;
  const consensus = values
    ? round((previous ?? i.level) + (rng() - 0.5) * i.spread, i.decimals)
    : null;
  const printed = values && released ? printValues(i, consensus, rng) : null;
  const period = new Date(dateMs - 30 * DAY);
  return {
    id: uuid(rng),
    eventId: event.id,
    dateUtc: new Date(dateMs).toISOString().replace('.000Z', 'Z'),
    periodDateUtc: new Date(Date.UTC(period.getUTCFullYear(), period.getUTCMonth(), 1))
      .toISOString()
      .replace('.000Z', 'Z'),
    periodType: event.periodType,
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
