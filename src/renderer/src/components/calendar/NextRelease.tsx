/**
 * "Next alert: 🇺🇸 US CPI in 23m": the next release the alert rules cover, whatever the
 * calendar's filters show (a text filter must not hide the print about to ring).
 */
import { useEffect, useMemo, useState } from 'react';
import { matchesEventDate } from '../../../../shared/alert-match.js';
import { VOLATILITIES, type AlertRules, type EventDate } from '../../../../shared/domain.js';
import { volatilityRank } from '../../../../shared/format.js';
import { countdown } from '../../lib/time.js';
import { useNow } from '../../lib/use-now.js';
import { useAlerts, useApp, useCalendar, useStores } from '../../state/index.js';
import type { CalendarState } from '../../state/calendar.js';
import { Flag } from '../Flag.js';

/** How far ahead the countdown looks, and how often it asks again without a change. */
const AHEAD_MS = 8 * 86_400_000;
const REFRESH_MS = 60_000;

const pending = (r: EventDate, now: number) => {
  const t = Date.parse(r.dateUtc);
  return r.actual === null && !r.isAllDay && t > now && t <= now + AHEAD_MS;
};

/** Whether the calendar's rows are every release of the next AHEAD_MS (no filter narrows them). */
function holdsAllAhead(s: Pick<CalendarState, 'filters' | 'window'>, now: number): boolean {
  const f = s.filters;
  const unfiltered =
    !f.volatilities.length && !f.countries.length && !f.categories.length && !f.text.trim();
  return unfiltered && s.window.from <= now && s.window.to >= now + AHEAD_MS;
}

/** Asks the cache for the upcoming releases the rules may cover (a filtered calendar). */
function useFetchedUpcoming(rules: AlertRules | undefined, ask: boolean, changed: unknown) {
  const { bridge } = useStores();
  const [rows, setRows] = useState<EventDate[]>([]);
  const tick = useNow(REFRESH_MS);
  useEffect(() => {
    if (!rules || !ask) return;
    let live = true;
    const now = Date.now();
    // Watched events alert at any impact; otherwise only the impacts at or above the minimum.
    const volatilities = rules.watchedEventIds.length
      ? []
      : VOLATILITIES.filter((v) => volatilityRank(v) >= volatilityRank(rules.minVolatility));
    bridge.api
      .listEventDates({
        from: new Date(now).toISOString(),
        to: new Date(now + AHEAD_MS).toISOString(),
        volatilities,
        limit: 2000,
      })
      .then((list) => live && setRows(list))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [bridge, rules, ask, tick, changed]);
  return rows;
}

/**
 * The upcoming releases the rules cover. An unfiltered calendar already holds every release
 * of the next days: those rows are used as they are, with no second request. A filtered one
 * asks the cache, and only once the calendar's own load has landed (never racing it).
 */
function useCoveredUpcoming(rules: AlertRules | undefined, rows: EventDate[]): EventDate[] {
  const complete = useCalendar((s) => holdsAllAhead(s, Date.now()));
  const loaded = useCalendar((s) => s.generation > 0);
  const fetched = useFetchedUpcoming(rules, loaded && !complete, rows);
  return useMemo(() => {
    if (!rules) return [];
    return (complete ? rows : fetched).filter((r) => matchesEventDate(r, rules, 'released'));
  }, [rules, complete, rows, fetched]);
}

export function NextRelease({ rows }: { rows: EventDate[] }) {
  const now = useNow(1000);
  const saved = useApp((s) => s.settings?.alertRules);
  const rules = useAlerts((s) => s.rules) ?? saved;
  const covered = useCoveredUpcoming(rules, rows);
  const next = covered.find((r) => pending(r, now));
  if (!next) return null;
  return (
    <div className="next-release" aria-live="off" data-testid="next-release">
      <span className="muted">Next alert:</span> <Flag code={next.countryCode} />
      <strong>
        {next.countryCode} {next.name}
      </strong>{' '}
      <span className="countdown">{countdown(Date.parse(next.dateUtc), now)}</span>
    </div>
  );
}
