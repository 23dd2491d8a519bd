import { useEffect, useState } from 'react';
import { useCalendar } from './index.js';

/** Past this, start-up is over even if the calendar never loaded (an error, another screen). */
const LATEST_MS = 3000;

/**
 * Whether the start-up's critical path is over: the calendar's first rows are on screen
 * (the frame after they landed), or a few seconds have gone by. Work nobody waits for at
 * launch (the news badge's count, preloading the alert sounds) waits for it, so that it
 * does not compete with the rows.
 */
export function useAfterStartup(): boolean {
  const landed = useCalendar((s) => s.generation > 0);
  const [over, setOver] = useState(false);
  useEffect(() => {
    if (over) return;
    let t: ReturnType<typeof setTimeout>;
    let raf = 0;
    if (landed && typeof requestAnimationFrame === 'function')
      raf = requestAnimationFrame(() => (t = setTimeout(() => setOver(true), 0)));
    else t = setTimeout(() => setOver(true), landed ? 0 : LATEST_MS);
    return () => {
      if (raf) cancelAnimationFrame(raf);
      clearTimeout(t);
    };
  }, [landed, over]);
  return over;
}
