/** The calendar's news windows: which rows fall inside one (shaded), from the rows shown. */
import { useMemo } from 'react';
import type { EventDate } from '../../../../shared/domain.js';
import { inNewsWindow, newsWindows } from '../../../../shared/news-windows.js';
import { useApp } from '../../state/index.js';

/** A test for one row's time; always false while the mode is off. */
export function useNewsWindowTest(rows: readonly EventDate[]): (ed: EventDate) => boolean {
  const nw = useApp((s) => s.settings?.newsWindow);
  return useMemo(() => {
    if (!nw?.enabled) return () => false;
    const windows = newsWindows(rows, nw);
    return (ed) => !ed.isAllDay && inNewsWindow(windows, Date.parse(ed.dateUtc));
  }, [rows, nw]);
}
