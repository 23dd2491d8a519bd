/**
 * The window title (the browser tab, the desktop window) counts down to the next
 * high-impact release with a figure, "US Nonfarm Payrolls in 23m 05s · Macrobell": in view
 * from any screen, and from the taskbar. Renders nothing; re-renders alone each second.
 */
import { useEffect } from 'react';
import { countdown } from '../lib/time.js';
import { useNow } from '../lib/use-now.js';
import { useCalendar } from '../state/index.js';
import { hasFigure, pending, useUpcoming } from './calendar/use-upcoming.js';

const APP_NAME = 'Macrobell';
const HIGH = ['HIGH'] as const;

export function TitleCountdown() {
  const rows = useCalendar((s) => s.rows);
  const upcoming = useUpcoming(HIGH, rows);
  const now = useNow(1000);
  const next = upcoming.find((r) => r.volatility === 'HIGH' && pending(r, now) && hasFigure(r));
  const title = next
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
