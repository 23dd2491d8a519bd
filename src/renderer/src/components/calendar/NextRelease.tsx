/**
 * "Next alert: 🇺🇸 US CPI in 23m": the next release the alert rules cover, whatever the
 * calendar's filters show (a text filter must not hide the print about to ring).
 */
import { useEffect, useState } from 'react';
import { matchesEventDate } from '../../../../shared/alert-match.js';
import { VOLATILITIES, type AlertRules, type EventDate } from '../../../../shared/domain.js';
import { volatilityRank } from '../../../../shared/format.js';
import { countdown } from '../../lib/time.js';
import { useNow } from '../../lib/use-now.js';
import { useAlerts, useApp, useStores } from '../../state/index.js';
import { Flag } from '../Flag.js';

/** How far ahead the countdown looks, and how often it asks again without a change. */
const AHEAD_MS = 8 * 86_400_000;
const REFRESH_MS = 60_000;

const pending = (r: EventDate, now: number) =>
  r.actual === null && !r.isAllDay && Date.parse(r.dateUtc) > now;

/** The upcoming releases the rules may cover, asked of the cache (not the filtered rows). */
function useCoveredUpcoming(rules: AlertRules | undefined, changed: unknown): EventDate[] {
  const { bridge } = useStores();
  const [rows, setRows] = useState<EventDate[]>([]);
  const tick = useNow(REFRESH_MS);
  useEffect(() => {
    if (!rules) return;
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
      .then((list) => live && setRows(list.filter((r) => matchesEventDate(r, rules, 'released'))))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [bridge, rules, tick, changed]);
  return rows;
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
