/**
 * "Next alert: 🇺🇸 US CPI in 23m": the next release the alert rules cover, whatever the
 * calendar's filters show (a text filter must not hide the print about to ring).
 */
import { useMemo } from 'react';
import { matchesEventDate } from '../../../../shared/alert-match.js';
import { VOLATILITIES, type AlertRules, type EventDate } from '../../../../shared/domain.js';
import { volatilityRank } from '../../../../shared/format.js';
import { countdown } from '../../lib/time.js';
import { useNow } from '../../lib/use-now.js';
import { useAlerts, useApp } from '../../state/index.js';
import { Flag } from '../Flag.js';
import { hasFigure, pending, useUpcoming } from './use-upcoming.js';

/** The upcoming releases the rules cover. */
function useCoveredUpcoming(rules: AlertRules | undefined, rows: EventDate[]): EventDate[] {
  // Watched events alert at any impact; otherwise only the impacts at or above the minimum.
  const volatilities = useMemo(
    () =>
      !rules
        ? null
        : rules.watchedEventIds.length
          ? []
          : VOLATILITIES.filter((v) => volatilityRank(v) >= volatilityRank(rules.minVolatility)),
    [rules],
  );
  const upcoming = useUpcoming(volatilities, rows);
  return useMemo(
    () => (rules ? upcoming.filter((r) => matchesEventDate(r, rules, 'released')) : []),
    [rules, upcoming],
  );
}

export function NextRelease({ rows }: { rows: EventDate[] }) {
  const now = useNow(1000);
  const saved = useApp((s) => s.settings?.alertRules);
  const rules = useAlerts((s) => s.rules) ?? saved;
  const covered = useCoveredUpcoming(rules, rows);
  // a speech prints no figure to count down to: the next release that does
  const next = covered.find((r) => pending(r, now) && hasFigure(r));
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
