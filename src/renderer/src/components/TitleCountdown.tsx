/**
 * The window title (the browser tab, the desktop window) counts down to the next
 * high-impact release with a figure, "US Nonfarm Payrolls in 23m 05s · Macrobell", or while
 * a news window is open (the mode on), to its end: "US NFP window · 3m left · Macrobell".
 * In view from any screen, and from the taskbar. Renders nothing; re-renders alone each second.
 */
import { useEffect } from 'react';
import { newsWindowTitle } from '../../../shared/news-windows.js';
import { countdown } from '../lib/time.js';
import { useCalendar } from '../state/index.js';
import { useHighCountdown } from './calendar/use-high-countdown.js';

const APP_NAME = 'Macrobell';

export function TitleCountdown() {
  const rows = useCalendar((s) => s.rows);
  const { now, next, open } = useHighCountdown(rows);
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
