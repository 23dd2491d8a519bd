/**
 * What the countdowns in view count down to: the next high-impact release with a figure (an
 * ad hoc speech prints none; a press conference moves the market without one) and the news
 * window open now, if the mode is on. The window title and
 * the calendar header read this one hook, so they never disagree.
 */
import { useMemo } from 'react';
import { VOLATILITIES, type EventDate } from '../../../../shared/domain.js';
import { newsWindows, type NewsWindow } from '../../../../shared/news-windows.js';
import { useNow } from '../../lib/use-now.js';
import { useApp } from '../../state/index.js';
import { countsDown, pending, useUpcoming } from './use-upcoming.js';

export interface HighCountdown {
  now: number;
  /** The next HIGH release that prints a figure, or a press conference. */
  next: EventDate | undefined;
  /** The news window open at `now`. */
  open: NewsWindow | undefined;
}

export function useHighCountdown(rows: EventDate[]): HighCountdown {
  const nw = useApp((s) => s.settings?.newsWindow);
  // HIGH, and the impacts that open a news window when the mode is on
  const impacts = useMemo(
    () => VOLATILITIES.filter((v) => v === 'HIGH' || (nw?.enabled && nw.impacts.includes(v))),
    [nw],
  );
  const upcoming = useUpcoming(impacts, rows);
  const windows = useMemo(() => (nw ? newsWindows(upcoming, nw) : []), [upcoming, nw]);
  const now = useNow(1000);
  const open = windows.find((w) => w.start <= now && now < w.end);
  const next = upcoming.find((r) => r.volatility === 'HIGH' && pending(r, now) && countsDown(r));
  return { now, next, open };
}
