/**
 * The releases of the next days, for the countdowns ("Next alert" in the calendar header, the
 * next high-impact release in the window title), whatever the calendar's filters show.
 */
import { useEffect, useState } from 'react';
import type { EventDate, Volatility } from '../../../../shared/domain.js';
import { useNow } from '../../lib/use-now.js';
import { useCalendar, useStores } from '../../state/index.js';
import type { CalendarState } from '../../state/calendar.js';

/** How far ahead the countdowns look, and how often they ask again without a change. */
export const AHEAD_MS = 8 * 86_400_000;
const REFRESH_MS = 60_000;

/** Not printed yet, timed, and within AHEAD_MS. */
export const pending = (r: EventDate, now: number) => {
  const t = Date.parse(r.dateUtc);
  return r.actual === null && !r.isAllDay && t > now && t <= now + AHEAD_MS;
};

/**
 * Whether a print brings a figure: a speech or a report with neither consensus nor a
 * previous value prints nothing a trader counts down to ("BoE's Bailey speech in 4d 23h").
 */
export const hasFigure = (r: EventDate) => r.consensus !== null || r.previous !== null;

const PRESS_CONFERENCE = /\bpress conference\b/i;

/**
 * A high-impact event that moves the market with no figure: a central bank's press
 * conference (the FOMC Chair at 2:30 p.m. ET), where the decision's tone is priced. An
 * ad hoc speech is not one: it would push the next print out of the countdowns.
 */
export const figureFreeMover = (r: EventDate) =>
  r.isSpeech && r.volatility === 'HIGH' && PRESS_CONFERENCE.test(r.name);

/** Whether the countdowns count down to it: it prints a figure, or moves the market without one. */
export const countsDown = (r: EventDate) => hasFigure(r) || figureFreeMover(r);

/** Whether the calendar's rows are every release of the next AHEAD_MS (no filter narrows them). */
function holdsAllAhead(s: Pick<CalendarState, 'filters' | 'window'>, now: number): boolean {
  const f = s.filters;
  const unfiltered =
    !f.volatilities.length && !f.countries.length && !f.categories.length && !f.text.trim();
  return unfiltered && s.window.from <= now && s.window.to >= now + AHEAD_MS;
}

/** A news window stays open this long after its last release at most (the fetch looks back). */
const BEHIND_MS = 3_600_000;

/**
 * Asks the cache for the releases of these impacts (empty: any) from an hour ago on (a news
 * window open now may hold one just printed); null: no need.
 */
function useFetchedUpcoming(volatilities: readonly Volatility[] | null, changed: unknown) {
  const { bridge } = useStores();
  const [rows, setRows] = useState<EventDate[]>([]);
  const tick = useNow(REFRESH_MS);
  useEffect(() => {
    if (!volatilities) return;
    let live = true;
    const now = Date.now();
    bridge.api
      .listEventDates({
        from: new Date(now - BEHIND_MS).toISOString(),
        to: new Date(now + AHEAD_MS).toISOString(),
        volatilities: [...volatilities],
        limit: 2000,
      })
      .then((list) => live && setRows(list))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [bridge, volatilities, tick, changed]);
  return rows;
}

/**
 * The upcoming releases of these impacts (null: not known yet). An unfiltered calendar
 * already holds every release of the next days: those rows are used as they are, with no
 * second request. A filtered one asks the cache, and only once the calendar's own load has
 * landed (never racing it).
 */
export function useUpcoming(
  volatilities: readonly Volatility[] | null,
  rows: EventDate[],
): EventDate[] {
  const complete = useCalendar((s) => holdsAllAhead(s, Date.now()));
  const loaded = useCalendar((s) => s.generation > 0);
  const fetched = useFetchedUpcoming(loaded && !complete ? volatilities : null, rows);
  return complete ? rows : fetched;
}
