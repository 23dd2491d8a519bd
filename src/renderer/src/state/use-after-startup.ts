import { useEffect, useState } from 'react';
import { useCalendar } from './index.js';

/** Past this, start-up is over even if the calendar never loaded (an error, another screen). */
const LATEST_MS = 3000;

/**
 * Whether the start-up's critical path is over: the calendar's first rows have landed (or
 * a few seconds have gone by). Work nobody waits for at launch (the news badge's count,
 * preloading the alert sounds) waits for it, so that it does not compete with the rows.
 */
export function useAfterStartup(): boolean {
  const landed = useCalendar((s) => s.generation > 0);
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (landed) return;
    const t = setTimeout(() => setLate(true), LATEST_MS);
    return () => clearTimeout(t);
  }, [landed]);
  return landed || late;
}
