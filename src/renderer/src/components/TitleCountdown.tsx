/**
 * The window title (the browser tab, the desktop window) counts down to the next
 * high-impact release with a figure, "US Nonfarm Payrolls in 23m 05s · Macrobell", or while
 * a news window is open (the mode on), to its end: "US NFP window · 3m left · Macrobell".
 * In view from any screen, and from the taskbar. Renders nothing; re-renders alone each second.
 */
import { useEffect, useMemo } from 'react';
import { VOLATILITIES } from '../../../shared/domain.js';
import { newsWindows, newsWindowTitle } from '../../../shared/news-windows.js';
import { countdown } from '../lib/time.js';
import { useNow } from '../lib/use-now.js';
import { useApp, useCalendar } from '../state/index.js';
import { hasFigure, pending, useUpcoming } from './calendar/use-upcoming.js';

const APP_NAME = 'Macrobell';

export function TitleCountdown() {
  const rows = useCalendar((s) => s.rows);
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
  const next = upcoming.find((r) => r.volatility === 'HIGH' && pending(r, now) && hasFigure(r));
  const title = open
    ? `${newsWindowTitle([open], now)} · ${APP_NAME}`
    : next
      ? `${next.countryCode} ${next.name} ${countdown(Date.parse(next.dateUtc), now)} · ${APP_NAME}`
      : APP_NAME;
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(
    () => () => {
      document.title = APP_NAME;
    },
    [],
  );
  return null;
}
