/**
 * "Next alert: 🇺🇸 US CPI in 12:34": the next release the alert rules cover, whatever the
 * calendar's filters show (a text filter must not hide the print about to ring).
 */
import { useMemo } from 'react';
import { matchesEventDate } from '../../../../shared/alert-match.js';
import { VOLATILITIES, type AlertRules, type EventDate } from '../../../../shared/domain.js';
import { volatilityRank } from '../../../../shared/format.js';
import { clockCountdown } from '../../lib/time.js';
import { useAlerts, useApp } from '../../state/index.js';
import { Flag } from '../Flag.js';
import { countsDown, figureFreeMover, pending, useUpcoming } from './use-upcoming.js';

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

/** The next release the alert rules cover that prints a figure, or a press conference. */
export function useNextAlert(rows: EventDate[], now: number): EventDate | undefined {
  const saved = useApp((s) => s.settings?.alertRules);
  const rules = useAlerts((s) => s.rules) ?? saved;
  const covered = useCoveredUpcoming(rules, rows);
  // an ad hoc speech prints no figure to count down to: the next release that does
  return covered.find((r) => pending(r, now) && countsDown(r));
}

/**
 * One countdown pill: "Next alert: 🇺🇸 US CPI in 12:34". `high`: it is the next
 * high-impact release too (the header shows it once, not twice).
 */
export function CountdownPill({
  label,
  ed,
  now,
  high,
  testId,
}: {
  label: string;
  ed: EventDate;
  now: number;
  high: boolean;
  testId: string;
}) {
  return (
    <div
      className={`header-countdown${testId === 'next-release' ? ' next-release' : ''}`}
      aria-live="off"
      data-testid={testId}
      data-event-id={ed.id}
      data-countdown={high ? 'high' : undefined}
    >
      <span className="muted">{label}</span> <Flag code={ed.countryCode} />
      <strong className="hc-name" title={`${ed.countryCode} ${ed.name}`}>
        {ed.countryCode} {ed.name}
      </strong>{' '}
      {figureFreeMover(ed) && (
        <>
          <span
            className="tag"
            data-testid="figure-free"
            title="It prints no figure: the market trades what is said"
          >
            no figure
          </span>{' '}
        </>
      )}
      <span>
        in <span className="countdown">{clockCountdown(Date.parse(ed.dateUtc) - now)}</span>
      </span>
    </div>
  );
}
